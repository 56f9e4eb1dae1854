package io.rdmareactive.micronaut;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * What the loggers of some categories log while the capture is open. rdma-reactive's wiretap takes its logger from
 * Reactor's {@link Loggers} when a connection is made, so Reactor's logger factory is replaced for the capture's
 * lifetime: loggers of the given categories, made meanwhile, record every line (DEBUG counts as enabled, which
 * slf4j-simple on this class path would not have); every other logger is the one Reactor would have made. Closing
 * puts Reactor's factory back. The test's own application contexts must connect while it is open.
 */
final class CapturedWiretap implements AutoCloseable {

    /** One line: the logger's name, its level and the formatted text. */
    record Line(String logger, String level, String message) {
    }

    private final Function<String, ? extends Logger> original;
    private final Queue<Line> lines = new ConcurrentLinkedQueue<>();

    private CapturedWiretap(final Set<String> categories) {
        original = currentFactory();
        Loggers.useCustomLoggers(name -> categories.contains(name) ? new Recording(name) : original.apply(name));
    }

    /** @param categories the loggers' names to record, e.g. {@code io.rdmareactive.RdmaServer} */
    static CapturedWiretap open(final String... categories) {
        return new CapturedWiretap(Set.of(categories));
    }

    /** @return the lines the category's loggers logged so far, in order */
    List<Line> of(final String category) {
        return lines.stream().filter(line -> line.logger().equals(category)).toList();
    }

    @Override
    public void close() {
        Loggers.useCustomLoggers(original);
    }

    @SuppressWarnings("unchecked")
    private static Function<String, ? extends Logger> currentFactory() {
        // Reactor keeps the factory it chose (SLF4J here) in a private field, and has no getter for it; reactor-test's
        // LoggerUtils and the core's tests read it the same way
        try {
            final Field field = Loggers.class.getDeclaredField("LOGGER_FACTORY");
            field.setAccessible(true);
            return (Function<String, ? extends Logger>) field.get(null);
        } catch (final ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot read Reactor's logger factory", ex);
        }
    }

    /** A logger of a captured category: records each line, formatted as SLF4J does ({} takes the next argument). */
    private final class Recording implements Logger {
        private final String name;

        Recording(final String name) {
            this.name = name;
        }

        private void record(final String level, final String format, final Object... arguments) {
            final StringBuilder message = new StringBuilder();
            int from = 0;
            for (final Object argument : arguments) {
                final int at = format.indexOf("{}", from);
                if (at < 0) {
                    break;
                }
                message.append(format, from, at).append(argument);
                from = at + 2;
            }
            lines.add(new Line(name, level, message.append(format, from, format.length()).toString()));
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public void trace(final String message) {
            record("TRACE", message);
        }

        @Override
        public void trace(final String format, final Object... arguments) {
            record("TRACE", format, arguments);
        }

        @Override
        public void trace(final String message, final Throwable error) {
            record("TRACE", message);
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public void debug(final String message) {
            record("DEBUG", message);
        }

        @Override
        public void debug(final String format, final Object... arguments) {
            record("DEBUG", format, arguments);
        }

        @Override
        public void debug(final String message, final Throwable error) {
            record("DEBUG", message);
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public void info(final String message) {
            record("INFO", message);
        }

        @Override
        public void info(final String format, final Object... arguments) {
            record("INFO", format, arguments);
        }

        @Override
        public void info(final String message, final Throwable error) {
            record("INFO", message);
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public void warn(final String message) {
            record("WARN", message);
        }

        @Override
        public void warn(final String format, final Object... arguments) {
            record("WARN", format, arguments);
        }

        @Override
        public void warn(final String message, final Throwable error) {
            record("WARN", message);
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        public void error(final String message) {
            record("ERROR", message);
        }

        @Override
        public void error(final String format, final Object... arguments) {
            record("ERROR", format, arguments);
        }

        @Override
        public void error(final String message, final Throwable error) {
            record("ERROR", message);
        }
    }
}
