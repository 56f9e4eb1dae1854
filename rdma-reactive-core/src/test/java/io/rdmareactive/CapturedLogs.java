package io.rdmareactive;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * What rdma-reactive logs while a test looks. The library logs through Reactor's {@link Loggers}, and each class takes
 * its logger once, when it initialises; so Reactor's logger factory is wrapped as the test JVM's JUnit session opens
 * ({@link Installer}, registered in {@code META-INF/services}), before any class of the library exists. Every
 * {@code io.rdmareactive} logger then still writes where it would (here: SLF4J, bound to java.util.logging on the test
 * class path) and, while a capture is open, records each message into it too, with its logger, level and throwable.
 * Debug and trace count as enabled while a capture is open, so guarded messages are recorded as well.
 */
public final class CapturedLogs implements AutoCloseable {

    /** One message: the logger's name, its level (TRACE, DEBUG, INFO, WARN, ERROR), the text, and its throwable. */
    public record Entry(String logger, String level, String message, Throwable error) {
    }

    private static final String LIBRARY = "io.rdmareactive.";
    private static final Set<CapturedLogs> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean installed;

    private final Queue<Entry> entries = new ConcurrentLinkedQueue<>();

    private CapturedLogs() {
    }

    /** @return a capture of what every {@code io.rdmareactive} logger logs from now until {@link #close()} */
    public static CapturedLogs open() {
        if (!installed) {
            throw new IllegalStateException("Reactor's logger factory was not wrapped when the JUnit session opened ("
                + "META-INF/services/org.junit.platform.launcher.LauncherSessionListener names "
                + Installer.class.getName() + "): the library's loggers would not be seen");
        }
        final CapturedLogs capture = new CapturedLogs();
        OPEN.add(capture);
        return capture;
    }

    /** @return what was logged so far, in order */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** @return what the logger of {@code type} logged so far */
    public List<Entry> of(final Class<?> type) {
        return entries.stream().filter(entry -> entry.logger().equals(type.getName())).toList();
    }

    @Override
    public void close() {
        OPEN.remove(this);
    }

    /** Wraps Reactor's logger factory as the JUnit session opens, before any test runs. */
    public static final class Installer implements LauncherSessionListener {
        @Override
        public void launcherSessionOpened(final LauncherSession session) {
            install();
        }
    }

    private static synchronized void install() {
        if (installed) {
            return;
        }
        final Function<String, ? extends Logger> original = currentFactory();
        Loggers.useCustomLoggers(name -> name.startsWith(LIBRARY) ? new Recording(original.apply(name))
            : original.apply(name));
        installed = true;
    }

    @SuppressWarnings("unchecked")
    private static Function<String, ? extends Logger> currentFactory() {
        // Reactor keeps the factory it chose (SLF4J when present) in a private field; reactor-test's LoggerUtils
        // reads it the same way
        try {
            final Field field = Loggers.class.getDeclaredField("LOGGER_FACTORY");
            field.setAccessible(true);
            return (Function<String, ? extends Logger>) field.get(null);
        } catch (final ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot read Reactor's logger factory", ex);
        }
    }

    /** A library logger: writes through the logger Reactor would have given, and into each open capture. */
    private static final class Recording implements Logger {
        private final Logger delegate;

        Recording(final Logger delegate) {
            this.delegate = delegate;
        }

        /** Formats as SLF4J does: each {} takes the next argument; a last argument that is a Throwable is the error. */
        private void record(final String level, final String format, final Object... arguments) {
            if (OPEN.isEmpty()) {
                return;
            }
            final int count = arguments.length;
            final Throwable error = count > 0 && arguments[count - 1] instanceof Throwable last ? last : null;
            final int used = error == null ? count : count - 1;
            final StringBuilder message = new StringBuilder();
            int from = 0;
            for (int i = 0; i < used; i++) {
                final int at = format.indexOf("{}", from);
                if (at < 0) {
                    break;
                }
                message.append(format, from, at).append(arguments[i]);
                from = at + 2;
            }
            message.append(format, from, format.length());
            final Entry entry = new Entry(delegate.getName(), level, message.toString(), error);
            for (final CapturedLogs capture : OPEN) {
                capture.entries.add(entry);
            }
        }

        @Override
        public String getName() {
            return delegate.getName();
        }

        @Override
        public boolean isTraceEnabled() {
            return !OPEN.isEmpty() || delegate.isTraceEnabled();
        }

        @Override
        public void trace(final String message) {
            record("TRACE", message);
            delegate.trace(message);
        }

        @Override
        public void trace(final String format, final Object... arguments) {
            record("TRACE", format, arguments);
            delegate.trace(format, arguments);
        }

        @Override
        public void trace(final String message, final Throwable error) {
            record("TRACE", message, error);
            delegate.trace(message, error);
        }

        @Override
        public boolean isDebugEnabled() {
            return !OPEN.isEmpty() || delegate.isDebugEnabled();
        }

        @Override
        public void debug(final String message) {
            record("DEBUG", message);
            delegate.debug(message);
        }

        @Override
        public void debug(final String format, final Object... arguments) {
            record("DEBUG", format, arguments);
            delegate.debug(format, arguments);
        }

        @Override
        public void debug(final String message, final Throwable error) {
            record("DEBUG", message, error);
            delegate.debug(message, error);
        }

        @Override
        public boolean isInfoEnabled() {
            return !OPEN.isEmpty() || delegate.isInfoEnabled();
        }

        @Override
        public void info(final String message) {
            record("INFO", message);
            delegate.info(message);
        }

        @Override
        public void info(final String format, final Object... arguments) {
            record("INFO", format, arguments);
            delegate.info(format, arguments);
        }

        @Override
        public void info(final String message, final Throwable error) {
            record("INFO", message, error);
            delegate.info(message, error);
        }

        @Override
        public boolean isWarnEnabled() {
            return !OPEN.isEmpty() || delegate.isWarnEnabled();
        }

        @Override
        public void warn(final String message) {
            record("WARN", message);
            delegate.warn(message);
        }

        @Override
        public void warn(final String format, final Object... arguments) {
            record("WARN", format, arguments);
            delegate.warn(format, arguments);
        }

        @Override
        public void warn(final String message, final Throwable error) {
            record("WARN", message, error);
            delegate.warn(message, error);
        }

        @Override
        public boolean isErrorEnabled() {
            return !OPEN.isEmpty() || delegate.isErrorEnabled();
        }

        @Override
        public void error(final String message) {
            record("ERROR", message);
            delegate.error(message);
        }

        @Override
        public void error(final String format, final Object... arguments) {
            record("ERROR", format, arguments);
            delegate.error(format, arguments);
        }

        @Override
        public void error(final String message, final Throwable error) {
            record("ERROR", message, error);
            delegate.error(message, error);
        }
    }
}
