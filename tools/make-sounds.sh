#!/bin/sh
# Synthesise tapis's sound cues with SoX: short, distinct, mono 16-bit WAV
# at 44.1 kHz (only mono sounds are positioned by OpenAL). Deterministic:
# -R makes SoX's noise the same on every run. Usage: sh tools/make-sounds.sh [DIR]
set -eu
out=${1:-sounds}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
S="sox -R -n -r 44100 -c 1 -b 16"
F="-r 44100 -c 1 -b 16"

# A card brushed on cloth: band-passed noise, fast attack, short decay.
swish() { # file length low high gain
	$S "$1" synth "$2" whitenoise sinc "$3-$4" fade q 0.004 "$2" 0.05 gain "$5"
}
# A chip touching another: a high, fast-decaying ping with a little noise.
clink() { # file freq length gain
	$S "$tmp/p.wav" synth "$3" sine "$2" sine "$(($2 * 27 / 10))" remix - fade q 0.001 "$3" "$3" gain "$4"
	sox -R "$tmp/p.wav" "$1" fade p 0 "$3" "$(echo "$3" | awk '{print $1*0.9}')"
}
# A short tone with a soft envelope.
tone() { # file length shape freq gain
	$S "$1" synth "$2" "$3" "$4" lowpass 5000 fade h 0.01 "$2" "$(echo "$2" | awk '{print $1*0.6}')" gain "$5"
}
# Silence.
gap() { $S "$1" trim 0 "$2"; }

# shuffle: a riffle, about twenty quick card ticks speeding up, then a square-up.
set --
i=0; d=0.030
while [ $i -lt 20 ]; do
	swish "$tmp/t$i.wav" 0.012 2500 7000 -3
	gap "$tmp/g$i.wav" "$d"
	set -- "$@" "$tmp/t$i.wav" "$tmp/g$i.wav"
	d=$(echo "$d" | awk '{v=$1*0.93; if (v<0.008) v=0.008; print v}')
	i=$((i+1))
done
swish "$tmp/end.wav" 0.08 300 2500 -4
sox "$@" "$tmp/end.wav" $F "$out/shuffle.wav"

# deal: one card sliding across the table.
$S "$tmp/d.wav" synth 0.16 pinknoise sinc 800-6000 fade q 0.01 0.16 0.10 gain 3
sox "$tmp/d.wav" $F "$out/deal.wav" pitch 0

# card: a card laid down: a snap and a short brush.
swish "$tmp/c1.wav" 0.015 1500 9000 -2
swish "$tmp/c2.wav" 0.07 400 3000 -10
sox "$tmp/c1.wav" "$tmp/c2.wav" $F "$out/card.wav"

# trick: the cards gathered: three brushes in a row, falling.
swish "$tmp/r1.wav" 0.07 1200 6000 -6
swish "$tmp/r2.wav" 0.07 900 5000 -7
swish "$tmp/r3.wav" 0.12 400 3000 -6
gap "$tmp/rg.wav" 0.03
sox "$tmp/r1.wav" "$tmp/rg.wav" "$tmp/r2.wav" "$tmp/rg.wav" "$tmp/r3.wav" $F "$out/trick.wav"

# chips: three chips clicking on one another.
clink "$tmp/k1.wav" 3100 0.06 -6
clink "$tmp/k2.wav" 3500 0.05 -8
clink "$tmp/k3.wav" 2800 0.08 -7
gap "$tmp/kg.wav" 0.035
sox "$tmp/k1.wav" "$tmp/kg.wav" "$tmp/k2.wav" "$tmp/kg.wav" "$tmp/k3.wav" $F "$out/chips.wav"

# pot_won: a cascade of chips and a rising major arpeggio.
set --
for f in 2600 3300 2900 3700 3100 3500; do
	clink "$tmp/w$f.wav" $f 0.05 -9
	gap "$tmp/wg$f.wav" 0.02
	set -- "$@" "$tmp/w$f.wav" "$tmp/wg$f.wav"
done
sox "$@" "$tmp/wc.wav"
tone "$tmp/a1.wav" 0.09 triangle 784 -8
tone "$tmp/a2.wav" 0.09 triangle 988 -8
tone "$tmp/a3.wav" 0.20 triangle 1175 -8
sox "$tmp/a1.wav" "$tmp/a2.wav" "$tmp/a3.wav" "$tmp/arp.wav"
sox -m "$tmp/wc.wav" "$tmp/arp.wav" $F "$out/pot_won.wav"

# fold: cards thrown down, then a low falling tone.
swish "$tmp/f1.wav" 0.09 300 2000 -5
$S "$tmp/f2.wav" synth 0.22 sine 330-165 fade h 0.01 0.22 0.12 gain -10
sox "$tmp/f1.wav" "$tmp/f2.wav" $F "$out/fold.wav"

# pass: two knocks on the table.
$S "$tmp/n.wav" synth 0.06 sine 160-90 synth 0.06 brownnoise mix lowpass 1200 fade q 0.002 0.06 0.055 gain -1
gap "$tmp/ng.wav" 0.07
sox "$tmp/n.wav" "$tmp/ng.wav" "$tmp/n.wav" $F "$out/pass.wav"

# your_turn: a soft two-note chime, rising.
tone "$tmp/y1.wav" 0.12 sine 880 -6
tone "$tmp/y2.wav" 0.22 sine 1319 -6
sox "$tmp/y1.wav" "$tmp/y2.wav" $F "$out/your_turn.wav"

# illegal: a short low buzz, twice.
$S "$tmp/b.wav" synth 0.09 square 150 gain -12 lowpass 1800 fade q 0.005 0.09 0.02
gap "$tmp/bg.wav" 0.04
sox "$tmp/b.wav" "$tmp/bg.wav" "$tmp/b.wav" $F "$out/illegal.wav"

# round_over: three notes falling to rest.
tone "$tmp/o1.wav" 0.12 triangle 784 -7
tone "$tmp/o2.wav" 0.12 triangle 659 -7
tone "$tmp/o3.wav" 0.30 triangle 523 -7
sox "$tmp/o1.wav" "$tmp/o2.wav" "$tmp/o3.wav" $F "$out/round_over.wav"

# game_over: a small fanfare, four notes and a held chord.
tone "$tmp/e1.wav" 0.12 triangle 523 -8
tone "$tmp/e2.wav" 0.12 triangle 659 -8
tone "$tmp/e3.wav" 0.12 triangle 784 -8
$S "$tmp/e4.wav" synth 0.6 triangle 1047 triangle 784 triangle 659 remix - lowpass 5000 fade h 0.01 0.6 0.4 gain -12
sox "$tmp/e1.wav" "$tmp/e2.wav" "$tmp/e3.wav" "$tmp/e4.wav" $F "$out/game_over.wav"

# chat: a light double tap, high and short: someone speaks, not the game.
tone "$tmp/c1.wav" 0.06 sine 1568 -10
gap "$tmp/cg.wav" 0.05
tone "$tmp/c2.wav" 0.08 sine 2093 -12
sox "$tmp/c1.wav" "$tmp/cg.wav" "$tmp/c2.wav" $F "$out/chat.wav"

for f in "$out"/*.wav; do
	printf '%-22s %ss\n' "$f" "$(soxi -D "$f")"
done
