/*
 * duration: how a time in microseconds is written, everywhere: tables
 * and columns in milliseconds with three decimals, switching to seconds
 * when a column would overflow; labels with a unit of their own.
 */
#ifndef TRACETUI_DURATION_H
#define TRACETUI_DURATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any duration this module writes, with its sign and unit. */
#define DURATION_SIZE 32

/* us as milliseconds with three decimals ("1234.567"); returns buf. */
char *duration_ms(char *buf, size_t size, uint64_t us);

/* us as seconds with three decimals, rounded to the millisecond
 * ("4000.000" for an hour and a bit); returns buf. */
char *duration_s(char *buf, size_t size, uint64_t us);

/* A signed change as milliseconds ("+1.500", "-0.250", "0.000"). */
char *duration_ms_signed(char *buf, size_t size, int64_t us);

/*
 * us in at most width columns for a milliseconds column: "1234.567"
 * when it fits, else fewer decimals, else whole seconds with a unit
 * ("58465s"), so a column never drops digits of the integer part.
 */
char *duration_ms_fit(char *buf, size_t size, uint64_t us, int width);

/* us with its unit, three decimals past the largest unit it reaches:
 * "950µs", "12.345ms", "3.200s" ("us" when ascii). */
char *duration_label(char *buf, size_t size, uint64_t us, bool ascii);

/* A tick label for t, a multiple of step, in the unit t reaches (µs,
 * ms, then s) with the decimals step needs: "200 ms", "3 s",
 * "5.0015 s", "697.7 ms", "50 µs". */
char *duration_tick(char *buf, size_t size, uint64_t t, uint64_t step,
                    bool ascii);

#endif
