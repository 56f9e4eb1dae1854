package io.rdmareactive.internal.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way a length of time is written in rdma-reactive's settings and tools: the idle strategies' park and sleep
 * periods ({@link IdleStrategies}), {@link CountersReaderTool}'s watch period and the perf comparison's options.
 *
 * <p>The grammar (case-insensitive, blanks around the whole ignored):
 * <ul>
 *   <li>a number and a unit, nothing between them: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}; the units
 *       are {@code ns}, {@code us} (or {@code µs}), {@code ms}, {@code s}, {@code m} (minutes) and {@code h}; the
 *       number is digits with an optional fraction ({@code 0.25s}), and the whole must come to a whole number of
 *       nanoseconds;</li>
 *   <li>an ISO-8601 duration, as {@link Duration#parse} reads it: {@code PT2S}, {@code PT1M30S}, {@code P1D}.</li>
 * </ul>
 * A number without a unit is refused: it meant seconds to one reader and milliseconds to another. So are signs and
 * negative durations. Zero is a duration ({@code 0s}); which lengths make sense is for the caller to say.
 */
public final class Durations {

    /** The forms, as error messages list them. */
    public static final String FORMS = "a number and a unit, ns, us, ms, s, m or h (e.g. 500ms, 1.5s, 2m), or ISO-8601 "
        + "(e.g. PT2S)";

    private static final Pattern AMOUNT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|μs|ms|s|m|h)");
    private static final Pattern NUMBER = Pattern.compile("[0-9]+(?:\\.[0-9]+)?");
    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

    private Durations() {
    }

    /**
     * @param text one of the forms in the class comment
     * @return the duration, zero or positive
     * @throws IllegalArgumentException naming {@code text}, what is wrong with it and the forms
     * @throws NullPointerException     if {@code text} is null
     */
    public static Duration parse(final String text) {
        Objects.requireNonNull(text, "duration");
        final String trimmed = text.strip().toLowerCase(Locale.ROOT);
        if (trimmed.startsWith("p")) {
            final Duration iso;
            try {
                iso = Duration.parse(trimmed.toUpperCase(Locale.ROOT));
            } catch (final DateTimeParseException ex) {
                throw invalid(text, "it is not ISO-8601");
            }
            if (iso.isNegative()) {
                throw invalid(text, "it is negative");
            }
            return iso;
        }
        final Matcher matcher = AMOUNT.matcher(trimmed);
        if (!matcher.matches()) {
            throw invalid(text, NUMBER.matcher(trimmed).matches() ? "it has no unit" : "it is not a number and a unit");
        }
        final BigDecimal nanos = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(switch (matcher.group(2)) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        }));
        final BigInteger whole;
        try {
            whole = nanos.toBigIntegerExact();
        } catch (final ArithmeticException ex) {
            throw invalid(text, "it is not a whole number of nanoseconds");
        }
        final BigInteger[] seconds = whole.divideAndRemainder(NANOS_PER_SECOND);
        if (seconds[0].bitLength() >= Long.SIZE) {
            throw invalid(text, "it is too long");
        }
        return Duration.ofSeconds(seconds[0].longValueExact(), seconds[1].longValueExact());
    }

    private static IllegalArgumentException invalid(final String text, final String problem) {
        return new IllegalArgumentException("'" + text + "' is not a duration: " + problem + "; use " + FORMS);
    }
}
