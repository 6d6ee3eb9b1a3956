/* menu: a spoken list walked with the arrows (or the first letter) and
 * chosen with Enter; Escape goes back. */
#ifndef TAPIS_MENU_H
#define TAPIS_MENU_H

struct speech;

#define MENU_BACK (-1)
#define MENU_QUIT (-2)   /* end of input or interrupt */

/* Say the title and the selected item; return the chosen index. */
int menu_run(struct speech *sp, const char *title, const char *const *items, int n, int selected);

#endif
