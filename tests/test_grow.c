/*
 * grow (include/grow.h): the room an array is given is the caller's
 * choice, room already there costs nothing, and a failure (here: a size
 * that overflows) leaves the array and its room as they were, its
 * contents kept.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

Test(grow, room_is_the_callers_and_failure_changes_nothing)
{
	double *a = NULL;
	size_t cap = 0;

	cr_assert_eq(grow(&a, &cap, 3, 5, sizeof(*a)), 0);
	cr_assert(a && cap == 5, "cap %zu", cap);
	for (int i = 0; i < 5; i++) /* all of the room is there (ASan would say) */
		a[i] = i;
	double *was = a;
	cr_assert_eq(grow(&a, &cap, 5, 99, sizeof(*a)), 0);
	cr_expect(a == was && cap == 5, "room enough already: nothing moves");
	cr_assert_eq(grow(&a, &cap, 6, 9, sizeof(*a)), 0);
	cr_expect_eq(cap, 9);
	for (int i = 0; i < 5; i++)
		cr_expect_eq(a[i], i, "element %d kept", i);
	was = a;
	cr_expect_eq(grow(&a, &cap, SIZE_MAX / 4, SIZE_MAX / 4, sizeof(*a)), -ENOMEM);
	cr_expect(a == was && cap == 9, "a failed growth leaves the array as it was");
	cr_expect_eq(grow_to(&a, SIZE_MAX / 2, 4), -ENOMEM);
	cr_expect_eq(a, was);
	cr_assert_eq(grow_to(&a, 2, sizeof(*a)), 0, "exactly two");
	cr_expect(a[0] == 0 && a[1] == 1);
	free(a);
}
