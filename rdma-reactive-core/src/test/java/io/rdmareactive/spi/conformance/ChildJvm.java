package io.rdmareactive.spi.conformance;

import io.rdmareactive.spi.demo.ChildJvmCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running {@link ConformancePeer}, with its output (stdout and stderr merged) collected line by line so
 * that a failing test can show what the peer said. Always {@link #close()} it: that kills it if it still runs.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Thread reader;

    private ChildJvm(final Process process) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("conformance-peer-output").start(this::read);
    }

    /** Starts {@code java ... ConformancePeer args} with this JVM's class path and the build's JVM flags. */
    static ChildJvm start(final List<String> peerArguments) {
        final List<String> command = new ArrayList<>(ChildJvmCommand.of(ConformancePeer.class, "-Xmx128m",
            "-XX:TieredStopAtLevel=1", "-Drdma.idle=" + System.getProperty("rdma.idle", "backoff")));
        command.addAll(peerArguments);
        try {
            return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot start the peer JVM: " + command, ex);
        }
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
        } catch (final IOException ignored) {
            // the process is gone; what it said is in lines
        }
    }

    /**
     * Waits until the peer printed a line starting with {@code prefix}.
     *
     * @return that line
     * @throws AssertionError if the peer exits without printing it, or does not print it within the bound
     */
    String awaitLine(final String prefix) {
        final String[] found = new String[1];
        Await.until(Await.CHILD_BOUND, () -> "the peer JVM to print '" + prefix + "'" + describe(), () -> {
            synchronized (lines) {
                for (final String line : lines) {
                    if (line.startsWith(prefix)) {
                        found[0] = line;
                        return true;
                    }
                }
            }
            if (!process.isAlive() && !reader.isAlive()) {
                throw new AssertionError("the peer JVM exited (" + process.exitValue() + ") without printing '"
                    + prefix + "'" + describe());
            }
            return false;
        });
        return found[0];
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILLs the peer and waits until it is gone. */
    void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** @return the peer's exit code, waiting for it to exit */
    int awaitExit() {
        try {
            if (!process.waitFor(Await.CHILD_BOUND.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the peer JVM did not exit within " + Await.CHILD_BOUND.toSeconds() + " s"
                    + describe());
            }
            reader.join(Duration.ofSeconds(5));
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the peer JVM", ex);
        }
        return process.exitValue();
    }

    /** @return what the peer printed, for failure messages */
    String describe() {
        synchronized (lines) {
            return "; the peer (pid " + process.pid() + ", " + (process.isAlive() ? "alive" : "exited") + ") printed:\n  "
                + String.join("\n  ", lines);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
