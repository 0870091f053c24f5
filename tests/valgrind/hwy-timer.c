/*
 * Preloaded under valgrind only (make valgrind-renders).  libhwy, which
 * libavcodec pulls in for JPEG XL, times its clock at load with rdtscp, an
 * instruction valgrind 3.19 does not emulate on every CPU: boids would die
 * of SIGILL before main.  Its constructor calls this function through the
 * PLT, so this definition replaces it.  boids never uses libhwy's timers;
 * the value only calibrates them.
 */
#include <stdint.h>

uint64_t _ZN3hwy8platform15TimerResolutionEv(void); /* hwy::platform::TimerResolution() */

uint64_t _ZN3hwy8platform15TimerResolutionEv(void)
{
	return 1;
}
