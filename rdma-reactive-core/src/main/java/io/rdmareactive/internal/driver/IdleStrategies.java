package io.rdmareactive.internal.driver;

import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Turns the configuration names of idle strategies into Agrona {@link IdleStrategy} instances.
 *
 * <p>The forms (names and keys are case-insensitive, blanks around them are ignored):
 * <table>
 *   <caption>idle strategy names</caption>
 *   <tr><th>form</th><th>strategy</th></tr>
 *   <tr><td>{@code busy-spin}</td><td>{@link BusySpinIdleStrategy}: {@link Thread#onSpinWait()}, never gives up
 *       the core; the lowest latency, one whole core per event loop</td></tr>
 *   <tr><td>{@code no-op}</td><td>{@link NoOpIdleStrategy}: spins without even the spin-wait hint</td></tr>
 *   <tr><td>{@code yielding}</td><td>{@link YieldingIdleStrategy}: {@link Thread#yield()} when idle</td></tr>
 *   <tr><td>{@code backoff}</td><td>{@link BackoffIdleStrategy} with Agrona's defaults: 10 spins, 5 yields, then
 *       parks from 1&nbsp;µs doubling up to 1&nbsp;ms</td></tr>
 *   <tr><td>{@code backoff:maxSpins=10,maxYields=5,minPark=1us,maxPark=1ms}</td><td>the same with any of the four
 *       parameters given (the others keep their defaults)</td></tr>
 *   <tr><td>{@code sleeping}</td><td>{@link SleepingMillisIdleStrategy} of 1&nbsp;ms</td></tr>
 *   <tr><td>{@code sleeping:<duration>}</td><td>{@link SleepingMillisIdleStrategy} for a whole number of
 *       milliseconds, {@link SleepingIdleStrategy} (park for nanoseconds) otherwise</td></tr>
 * </table>
 * A duration is written as {@link Durations} reads it ({@code 50ns}, {@code 1us}, {@code 1.5ms}, {@code PT0.001S});
 * park and sleep periods lie between 1&nbsp;ns and 1&nbsp;s (a driver that sleeps longer than that makes every
 * connect wait for it, which is a mistake rather than a setting).
 *
 * <p>Each {@link #parse(String)} returns a new instance: {@link BackoffIdleStrategy} keeps state, so every driver
 * thread needs its own; {@link #supplier(String)} checks the form once and makes instances on demand.
 *
 * <h2>The default: {@link #defaultFor(int)}</h2>
 * {@code busy-spin} with 4 or more available processors, {@code backoff} with 3 or fewer. Spinning starves a small
 * machine: on 2 cores, Aeron ping-pong with a busy-spinning driver and two busy-spinning application threads had a
 * p50 round trip of 8&nbsp;ms, against 27–30&nbsp;µs when the threads yielded. One
 * spinning event loop takes a whole core; the default spins only where at least three more are left for the
 * application's threads, the garbage collector and the JIT. On 3 cores and fewer it backs off rather than yields:
 * a backoff thread still spins and yields for the first few idle cycles, so a busy connection sees little
 * difference, but an idle one parks instead of burning a core forever (which, in a container with a CPU quota, also
 * throttles the rest of the process). Those who want the 27–30&nbsp;µs of yielding on a small machine, at the price
 * of a core, configure {@code yielding}. {@link #configured()} reads the {@value #PROPERTY} system property first
 * (the build sets it to {@code backoff} for every test JVM).
 */
public final class IdleStrategies {

    /** The system property that {@link #configured()} reads. */
    public static final String PROPERTY = "rdma.idle";

    /** The smallest processor count for which {@link #defaultFor(int)} chooses {@code busy-spin}. */
    public static final int BUSY_SPIN_MIN_PROCESSORS = 4;

    /** The longest park or sleep period accepted, in nanoseconds: one second. */
    public static final long MAX_PERIOD_NS = 1_000_000_000L;

    private static final Duration MAX_PERIOD = Duration.ofNanos(MAX_PERIOD_NS);

    static final String VALID_FORMS = "busy-spin | no-op | yielding | backoff | "
        + "backoff:maxSpins=<n>,maxYields=<n>,minPark=<duration>,maxPark=<duration> (any of the four) | sleeping | "
        + "sleeping:<duration>; a duration is a number and a unit, ns, us, ms or s, from 1ns to 1s "
        + "(e.g. backoff:maxSpins=10,maxYields=5,minPark=1us,maxPark=1ms or sleeping:1ms)";

    private static final Pattern COUNT = Pattern.compile("[0-9]{1,10}");

    private IdleStrategies() {
    }

    /**
     * @param spec one of the forms in the class comment
     * @return a new idle strategy
     * @throws IllegalArgumentException if the form or a parameter is not valid; the message lists the valid forms
     * @throws NullPointerException     if {@code spec} is null
     */
    public static IdleStrategy parse(final String spec) {
        Objects.requireNonNull(spec, "idle strategy");
        final String trimmed = spec.strip();
        final int colon = trimmed.indexOf(':');
        final String name = (colon < 0 ? trimmed : trimmed.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        final String parameters = colon < 0 ? null : trimmed.substring(colon + 1).strip();
        return switch (name) {
            case "busy-spin" -> withoutParameters(spec, name, parameters, new BusySpinIdleStrategy());
            case "no-op" -> withoutParameters(spec, name, parameters, new NoOpIdleStrategy());
            case "yielding" -> withoutParameters(spec, name, parameters, new YieldingIdleStrategy());
            case "backoff" -> backoff(spec, parameters);
            case "sleeping" -> sleeping(spec, parameters);
            default -> throw invalid(spec, "unknown idle strategy '" + name + "'");
        };
    }

    /**
     * Checks {@code spec} now and returns a supplier of new instances, one per event loop.
     *
     * @param spec one of the forms in the class comment
     * @return a supplier that returns a new strategy on every call
     * @throws IllegalArgumentException if the form or a parameter is not valid
     */
    public static Supplier<IdleStrategy> supplier(final String spec) {
        parse(spec);
        return () -> parse(spec);
    }

    /**
     * The default idle strategy for a machine: see the class comment for why.
     *
     * @param availableProcessors what {@link Runtime#availableProcessors()} says (container-aware on Linux)
     * @return {@code "busy-spin"} for {@value #BUSY_SPIN_MIN_PROCESSORS} processors or more, {@code "backoff"}
     *     otherwise
     * @throws IllegalArgumentException if {@code availableProcessors} is not positive
     */
    public static String defaultFor(final int availableProcessors) {
        if (availableProcessors < 1) {
            throw new IllegalArgumentException("availableProcessors must be positive: " + availableProcessors);
        }
        return availableProcessors >= BUSY_SPIN_MIN_PROCESSORS ? "busy-spin" : "backoff";
    }

    /**
     * @return the {@value #PROPERTY} system property if it is set, otherwise {@link #defaultFor(int)} for this
     *     machine's available processors
     */
    public static String configured() {
        final String property = System.getProperty(PROPERTY);
        return property != null && !property.isBlank() ? property
            : defaultFor(Runtime.getRuntime().availableProcessors());
    }

    private static IdleStrategy withoutParameters(final String spec, final String name, final String parameters,
                                                  final IdleStrategy strategy) {
        if (parameters != null) {
            throw invalid(spec, "'" + name + "' takes no parameters");
        }
        return strategy;
    }

    /**
     * When a strategy parks its thread, and for how long: after {@code turnsBeforePark} idle turns in a row, for
     * {@code minParkNanos} doubling to {@code maxParkNanos} (equal for the sleeping strategies, which park at every
     * idle turn). An event loop that can sleep on its doorbell page's word follows this plan with its own sleeps,
     * which a peer in any process can cut short, instead of the strategy's parks.
     */
    record ParkPlan(long turnsBeforePark, long minParkNanos, long maxParkNanos) {
    }

    /**
     * @return the park plan of {@code strategy}, or null if it never parks the thread (busy-spin, no-op, yielding, or
     *     a strategy this class does not know). Agrona keeps the periods in fields without accessors: they are read
     *     once, when a loop starts, and Agrona's defaults stand in where they cannot be read.
     */
    static ParkPlan parkPlan(final IdleStrategy strategy) {
        if (strategy instanceof BackoffIdleStrategy) {
            final Class<?> data = BackoffIdleStrategy.class.getSuperclass(); // BackoffIdleStrategyData
            final long spins = field(data, strategy, "maxSpins", BackoffIdleStrategy.DEFAULT_MAX_SPINS);
            final long yields = field(data, strategy, "maxYields", BackoffIdleStrategy.DEFAULT_MAX_YIELDS);
            return new ParkPlan(spins + yields,
                field(data, strategy, "minParkPeriodNs", BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS),
                field(data, strategy, "maxParkPeriodNs", BackoffIdleStrategy.DEFAULT_MAX_PARK_PERIOD_NS));
        }
        if (strategy instanceof SleepingIdleStrategy) {
            final long period = field(SleepingIdleStrategy.class, strategy, "sleepPeriodNs",
                SleepingIdleStrategy.DEFAULT_SLEEP_PERIOD_NS);
            return new ParkPlan(0, period, period);
        }
        if (strategy instanceof SleepingMillisIdleStrategy) {
            final long period = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(field(
                SleepingMillisIdleStrategy.class, strategy, "sleepPeriodMs", 1));
            return new ParkPlan(0, period, period);
        }
        return null;
    }

    private static long field(final Class<?> owner, final Object instance, final String name, final long fallback) {
        try {
            final java.lang.reflect.Field field = owner.getDeclaredField(name);
            field.setAccessible(true);
            return field.getLong(instance);
        } catch (final ReflectiveOperationException | RuntimeException ex) {
            return fallback;
        }
    }

    private static IdleStrategy backoff(final String spec, final String parameters) {
        long maxSpins = BackoffIdleStrategy.DEFAULT_MAX_SPINS;
        long maxYields = BackoffIdleStrategy.DEFAULT_MAX_YIELDS;
        long minPark = BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS;
        long maxPark = BackoffIdleStrategy.DEFAULT_MAX_PARK_PERIOD_NS;
        if (parameters != null) {
            final Map<String, String> values = keyValues(spec, parameters);
            for (final Map.Entry<String, String> entry : values.entrySet()) {
                switch (entry.getKey()) {
                    case "maxspins" -> maxSpins = count(spec, "maxSpins", entry.getValue());
                    case "maxyields" -> maxYields = count(spec, "maxYields", entry.getValue());
                    case "minpark" -> minPark = duration(spec, "minPark", entry.getValue());
                    case "maxpark" -> maxPark = duration(spec, "maxPark", entry.getValue());
                    default -> throw invalid(spec, "unknown backoff parameter '" + entry.getKey()
                        + "' (the parameters are maxSpins, maxYields, minPark and maxPark)");
                }
            }
        }
        if (minPark > maxPark) {
            throw invalid(spec, "minPark (" + minPark + " ns) is longer than maxPark (" + maxPark + " ns)");
        }
        return new BackoffIdleStrategy(maxSpins, maxYields, minPark, maxPark);
    }

    private static IdleStrategy sleeping(final String spec, final String parameters) {
        if (parameters == null) {
            return new SleepingMillisIdleStrategy(1);
        }
        if (parameters.isEmpty()) {
            throw invalid(spec, "'sleeping:' needs a duration after the colon");
        }
        final long nanos = duration(spec, "the sleep period", parameters);
        return nanos % 1_000_000L == 0 ? new SleepingMillisIdleStrategy(nanos / 1_000_000L)
            : new SleepingIdleStrategy(nanos);
    }

    private static Map<String, String> keyValues(final String spec, final String parameters) {
        if (parameters.isEmpty()) {
            throw invalid(spec, "'backoff:' needs parameters after the colon");
        }
        final Map<String, String> values = new HashMap<>();
        for (final String pair : parameters.split(",", -1)) {
            final int equals = pair.indexOf('=');
            if (equals < 0) {
                throw invalid(spec, "'" + pair.strip() + "' is not key=value");
            }
            final String key = pair.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            if (values.put(key, pair.substring(equals + 1).strip()) != null) {
                throw invalid(spec, "'" + pair.substring(0, equals).strip() + "' is given twice");
            }
        }
        return values;
    }

    private static long count(final String spec, final String what, final String value) {
        if (!COUNT.matcher(value).matches() || Long.parseLong(value) > Integer.MAX_VALUE) {
            throw invalid(spec, what + " must be a whole number from 0 to " + Integer.MAX_VALUE + ", not '" + value
                + "'");
        }
        return Long.parseLong(value);
    }

    private static long duration(final String spec, final String what, final String value) {
        final Duration duration;
        try {
            duration = Durations.parse(value);
        } catch (final IllegalArgumentException ex) {
            throw invalid(spec, what + " " + ex.getMessage());
        }
        if (duration.isZero() || duration.compareTo(MAX_PERIOD) > 0) {
            throw invalid(spec, what + " '" + value + "' is outside 1ns to 1s");
        }
        return duration.toNanos();
    }

    private static IllegalArgumentException invalid(final String spec, final String problem) {
        return new IllegalArgumentException("invalid idle strategy '" + spec + "': " + problem + ". Valid forms: "
            + VALID_FORMS);
    }
}
