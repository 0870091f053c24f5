/*
 * rate — a frame rate as the fraction it is: 30 is 30/1, NTSC's 29.97 is
 * 30000/1001.  One value from --fps's parsing (reduced) to the encoder's
 * time base, the trajectory's attribute, the summary and the captions'
 * {time}; a decimal is made of it only where a number is shown.
 * Header only (the video and HDF5 plugins take it too).
 */
#ifndef BOIDS_RATE_H
#define BOIDS_RATE_H

struct rate {
	long num;               /* frames ... */
	long den;               /* ... in den seconds; >= 1 (1: a whole rate) */
};

/* Frames a second, as a double (30000/1001: 29.97002997...). */
static inline double rate_hz(struct rate r)
{
	return (double)r.num / (double)r.den;
}

/* When frame k is shown, in seconds: k den / num. */
static inline double rate_seconds(struct rate r, long frame)
{
	return (double)frame * (double)r.den / (double)r.num;
}

#endif
