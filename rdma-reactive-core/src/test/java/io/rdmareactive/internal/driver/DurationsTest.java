package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** The one grammar of durations: every form a duration can be written in reads back as that duration. */
class DurationsTest {

    private static final long[] UNIT_NANOS = {1L, 1_000L, 1_000_000L, 1_000_000_000L, 60_000_000_000L,
        3_600_000_000_000L};
    private static final String[] UNITS = {"ns", "us", "ms", "s", "m", "h"};

    @Property(tries = 500)
    void isoRoundTrips(@ForAll("durations") final Duration duration) {
        assertThat(Durations.parse(duration.toString())).isEqualTo(duration);
        assertThat(Durations.parse(duration.toString().toLowerCase(Locale.ROOT))).isEqualTo(duration);
    }

    /** In every unit the duration is an exact decimal of: ns to s always, minutes and hours when they divide it. */
    @Property(tries = 500)
    void everyUnitRoundTrips(@ForAll("durations") final Duration duration) {
        final BigDecimal nanos = BigDecimal.valueOf(duration.getSeconds()).scaleByPowerOfTen(9)
            .add(BigDecimal.valueOf(duration.getNano()));
        for (int i = 0; i < UNITS.length; i++) {
            final BigDecimal unit = BigDecimal.valueOf(UNIT_NANOS[i]);
            if (i > 3 && nanos.remainder(unit).signum() != 0) {
                continue;
            }
            final String text = nanos.divide(unit).toPlainString() + UNITS[i];
            assertThat(Durations.parse(text)).as(text).isEqualTo(duration);
        }
    }

    @Property(tries = 200)
    void wholeAmountsOfAUnitRoundTrip(@ForAll @LongRange(max = 1_000_000) final long amount,
                                      @ForAll("units") final int unit) {
        assertThat(Durations.parse(amount + UNITS[unit])).isEqualTo(Duration.ofNanos(amount * UNIT_NANOS[unit]));
        assertThat(Durations.parse(" " + amount + UNITS[unit].toUpperCase(Locale.ROOT) + " "))
            .isEqualTo(Duration.ofNanos(amount * UNIT_NANOS[unit]));
    }

    @Provide
    Arbitrary<Duration> durations() {
        return Combinators.combine(Arbitraries.longs().between(0, 10L * 365 * 24 * 3600),
            Arbitraries.integers().between(0, 999_999_999)).as(Duration::ofSeconds);
    }

    @Provide
    Arbitrary<Integer> units() {
        return Arbitraries.integers().between(0, UNITS.length - 1);
    }

    @Example
    void examples() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("20µs")).isEqualTo(Duration.ofNanos(20_000));
        assertThat(Durations.parse("20US")).isEqualTo(Duration.ofNanos(20_000));
        assertThat(Durations.parse("50ns")).isEqualTo(Duration.ofNanos(50));
        assertThat(Durations.parse("0.25ms")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("0s")).isZero();
        assertThat(Durations.parse("PT2S")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("pt1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("P1D")).isEqualTo(Duration.ofDays(1));
        assertThat(Durations.parse("PT0.001S")).isEqualTo(Duration.ofMillis(1));
    }

    @Example
    void badInputsAreRefusedNamingTheValueAndTheForms() {
        refused("10", "no unit");
        refused("1.5", "no unit");
        refused("", "not a number and a unit");
        refused("twos", "not a number and a unit");
        refused("10 s", "not a number and a unit");
        refused("-1s", "not a number and a unit");
        refused("+1s", "not a number and a unit");
        refused("1e3ms", "not a number and a unit");
        refused(".5s", "not a number and a unit");
        refused("5.s", "not a number and a unit");
        refused("1d", "not a number and a unit");
        refused("1sec", "not a number and a unit");
        refused("0.5ns", "not a whole number of nanoseconds");
        refused("1.0000000001s", "not a whole number of nanoseconds");
        refused("PT", "not ISO-8601");
        refused("P1S", "not ISO-8601");
        refused("PT-1S", "negative");
        refused("99999999999999999999999h", "too long");
    }

    @Example
    void nullIsNotADuration() {
        assertThatNullPointerException().isThrownBy(() -> Durations.parse(null));
    }

    private static void refused(final String text, final String problem) {
        assertThatIllegalArgumentException().as(text).isThrownBy(() -> Durations.parse(text))
            .withMessageStartingWith("'" + text + "' is not a duration: ")
            .withMessageContaining(problem)
            .withMessageEndingWith(Durations.FORMS);
    }
}
