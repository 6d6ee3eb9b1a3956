/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/store/rating.h"

#include <math.h>

/* The Glicko-2 scale: mu = (r - 1500) / K, phi = RD / K. */
#define K 173.7178
#define EPSILON 0.000001

void rating_init(struct rating *x)
{
	x->r = RATING_START;
	x->rd = RATING_START_RD;
	x->sigma = RATING_START_SIGMA;
}

static double g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double e_of(double mu, double mu_j, double g_j)
{
	return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

/* Step 5 of the paper: the new volatility, by the Illinois algorithm on
 * f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2. */
static double f_of(double x, double delta, double phi, double v, double a, double tau)
{
	double ex = exp(x), d = phi * phi + v + ex;
	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

static double new_sigma(double sigma, double delta, double phi, double v, double tau)
{
	double a = log(sigma * sigma), A = a, B;
	if (delta * delta > phi * phi + v) {
		B = log(delta * delta - phi * phi - v);
	} else {
		int k = 1;
		while (f_of(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000)
			k++;
		B = a - k * tau;
	}
	double fA = f_of(A, delta, phi, v, a, tau), fB = f_of(B, delta, phi, v, a, tau);
	for (int i = 0; fabs(B - A) > EPSILON && i < 1000; i++) {
		double C = A + (A - B) * fA / (fB - fA);
		double fC = f_of(C, delta, phi, v, a, tau);
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA /= 2.0;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

struct rating rating_update(struct rating x, const struct rating_game *games, int n, double tau)
{
	double mu = (x.r - RATING_START) / K, phi = x.rd / K;
	struct rating out = x;
	if (n <= 0) {
		/* Step 6 alone: an idle period widens the deviation. */
		out.rd = K * sqrt(phi * phi + x.sigma * x.sigma);
		if (out.rd > RATING_START_RD)
			out.rd = RATING_START_RD;
		return out;
	}
	double vinv = 0, sum = 0;
	for (int j = 0; j < n; j++) {
		double mu_j = (games[j].opp.r - RATING_START) / K, phi_j = games[j].opp.rd / K;
		double g = g_of(phi_j), e = e_of(mu, mu_j, g);
		vinv += g * g * e * (1.0 - e);
		sum += g * (games[j].score - e);
	}
	double v = 1.0 / vinv, delta = v * sum;
	double sigma = new_sigma(x.sigma, delta, phi, v, tau);
	double phi_star = sqrt(phi * phi + sigma * sigma);
	double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	double mu_new = mu + phi_new * phi_new * sum;
	out.r = K * mu_new + RATING_START;
	out.rd = K * phi_new;
	out.sigma = sigma;
	return out;
}

void rating_game(struct rating *players, const int *rank, int n, double tau)
{
	struct rating before[RATING_MAX_GAMES + 1];
	struct rating_game games[RATING_MAX_GAMES];
	if (n > RATING_MAX_GAMES + 1)
		n = RATING_MAX_GAMES + 1;
	for (int i = 0; i < n; i++)
		before[i] = players[i];
	for (int i = 0; i < n; i++) {
		int k = 0;
		for (int j = 0; j < n; j++) {
			if (j == i)
				continue;
			games[k].opp = before[j];
			games[k].score = rank[i] < rank[j] ? 1.0 : rank[i] == rank[j] ? 0.5 : 0.0;
			k++;
		}
		players[i] = rating_update(before[i], games, k, tau);
	}
}
