package io.rdmareactive.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM a test started ({@link ChildJvmLauncher}): its output (stdout and stderr together) kept line by line, so that
 * a test can wait for a line and a failing test can show what the child said; every wait is bounded. Always
 * {@link #close()} it: that kills it if it still runs.
 */
public final class ChildJvm implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(10);

    private final Process process;
    private final List<String> command;
    private final Duration bound;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;
    private Writer input;

    ChildJvm(final Process process, final List<String> command, final Duration bound, final OutputEcho echo,
             final boolean keepOutput) {
        this.process = process;
        this.command = List.copyOf(command);
        this.bound = bound;
        this.reader = keepOutput ? Thread.ofPlatform().daemon().name("child-jvm-output-" + process.pid())
            .start(() -> read(echo)) : null;
    }

    private void read(final OutputEcho echo) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (echo != null) {
                    echo.show(line);
                }
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (final IOException ignored) {
            // the child is gone; what it said is in lines
        }
    }

    /** @return the child's process id */
    public long pid() {
        return process.pid();
    }

    /** @return whether the child still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * @return the child's exit status
     * @throws IllegalThreadStateException if it still runs
     */
    public int exitValue() {
        return process.exitValue();
    }

    /** @return the command line the child was started with */
    public List<String> command() {
        return command;
    }

    /** @return the lines the child printed so far */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** @return what the child printed so far, one line after another */
    public String output() {
        return String.join("\n", lines());
    }

    /** @return the first line the child printed that starts with {@code prefix}, or null */
    public String firstLine(final String prefix) {
        return lines().stream().filter(line -> line.startsWith(prefix)).findFirst().orElse(null);
    }

    /**
     * Waits, within the launcher's bound, until the child printed a line starting with {@code prefix}.
     *
     * @return that line
     * @throws AssertionError if the child exits without printing it, or does not print it in time
     */
    public String awaitLine(final String prefix) {
        awaitLines(prefix, 1, bound);
        return firstLine(prefix);
    }

    /**
     * Waits until the child printed {@code count} lines starting with {@code prefix}.
     *
     * @throws AssertionError if the child exits first, or does not print them within {@code within}
     */
    public void awaitLines(final String prefix, final int count, final Duration within) {
        final long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            final boolean gone = !process.isAlive() && (reader == null || !reader.isAlive());
            if (lines().stream().filter(line -> line.startsWith(prefix)).count() >= count) {
                return;
            }
            if (gone) {
                throw new AssertionError("the child JVM exited (" + process.exitValue() + ") without printing '"
                    + prefix + "'" + (count > 1 ? " " + count + " times" : "") + describe());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the child JVM did not print '" + prefix + "'"
                    + (count > 1 ? " " + count + " times" : "") + " within " + within.toSeconds() + " s"
                    + describe());
            }
            sleep(POLL);
        }
    }

    /** @return the child's exit status, waiting for it within the launcher's bound; see {@link #awaitExit(Duration)} */
    public int awaitExit() {
        return awaitExit(bound);
    }

    /**
     * Waits for the child to exit, and for all it printed to be kept.
     *
     * @return its exit status
     * @throws AssertionError if it does not exit within {@code within} (it is left running; {@link #close()} kills it)
     */
    public int awaitExit(final Duration within) {
        if (!exitsWithin(within)) {
            throw new AssertionError("the child JVM did not exit within " + within.toSeconds() + " s" + describe());
        }
        return process.exitValue();
    }

    /**
     * Waits up to {@code within} for the child to exit, and then for all it printed to be kept; for a test whose
     * point is whether it exits.
     *
     * @return whether it exited
     */
    public boolean exitsWithin(final Duration within) {
        try {
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                return false;
            }
            if (reader != null) {
                reader.join(Duration.ofSeconds(10));
            }
            return true;
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the child JVM", ex);
        }
    }

    /** Writes {@code line} and a newline to the child's standard input. */
    public void send(final String line) {
        try {
            if (input == null) {
                input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            }
            input.write(line + "\n");
            input.flush();
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot write to the child JVM" + describe(), ex);
        }
    }

    /**
     * Sends the child a signal with kill(1), such as {@code STOP} or {@code CONT}, which {@link Process} cannot.
     *
     * @throws AssertionError if kill(1) fails
     */
    public void signal(final String name) {
        try {
            final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO()
                .start();
            if (!kill.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + name + " " + process.pid() + " failed" + describe());
            }
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot run kill -" + name, ex);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted sending " + name + " to the child JVM", ex);
        }
    }

    /**
     * Asks the child to end (SIGTERM: its shutdown hooks run) and waits up to {@code within} for it to go and for all
     * it printed to be kept.
     *
     * @return whether it ended in time
     */
    public boolean terminate(final Duration within) {
        process.destroy();
        return exitsWithin(within);
    }

    /** SIGKILLs the child (nothing of its own runs) and waits, within the launcher's bound, until it is gone. */
    public void kill() {
        process.destroyForcibly();
        waitQuietly(bound);
    }

    /** @return the child's state and all it printed so far, for a failure message */
    public String describe() {
        return "; the child JVM (pid " + process.pid() + ", " + (process.isAlive() ? "alive" : "exited")
            + ") printed:\n  " + String.join("\n  ", lines());
    }

    /** Kills the child if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    private void waitQuietly(final Duration within) {
        try {
            process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(final Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the child JVM", ex);
        }
    }
}
