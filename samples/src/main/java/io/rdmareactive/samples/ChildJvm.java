package io.rdmareactive.samples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second process a sample starts: the same {@code java}, this JVM's options (heap, collector, system properties;
 * not a debugger agent, whose port this JVM holds) plus the two flags every rdma-reactive JVM needs where they are
 * missing, the same class path, then a main class and its arguments. Its output (stdout and stderr) is kept line by
 * line and shown with a prefix.
 */
final class ChildJvm implements AutoCloseable {

    /** The flags every JVM that uses rdma-reactive needs. */
    static final List<String> REQUIRED_FLAGS = List.of("--enable-native-access=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    private final Process process;
    private final Thread reader;
    private final List<String> lines = new ArrayList<>();

    private ChildJvm(final Process process, final String prefix, final PrintStream out) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("child-output-" + process.pid()).start(() -> read(prefix, out));
    }

    /**
     * @param mainClass    the class whose {@code main} the child runs
     * @param jvmOptions   options for the child alone, after the inherited ones (so a later {@code -Xmx} wins)
     * @param arguments    the program's arguments
     * @param prefix       shown before each line the child prints
     * @param out          where the child's lines are shown
     */
    static ChildJvm start(final Class<?> mainClass, final List<String> jvmOptions, final List<String> arguments,
                          final String prefix, final PrintStream out) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final List<String> inherited = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .filter(option -> !option.startsWith("-agentlib:jdwp") && !option.startsWith("-Xrunjdwp")).toList();
        command.addAll(inherited);
        REQUIRED_FLAGS.stream().filter(flag -> !inherited.contains(flag)).forEach(command::add);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(arguments);
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start(), prefix, out);
    }

    private void read(final String prefix, final PrintStream out) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(prefix + line);
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (final IOException ignored) {
            // the child is gone; what it said is in lines
        }
    }

    /**
     * Waits for the child to print a line that starts with {@code start}.
     *
     * @return that line
     * @throws IllegalStateException if the child exits first, or prints no such line within {@code within}
     */
    String awaitLine(final String start, final Duration within) throws InterruptedException {
        final long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            final String line = firstLine(start);
            if (line != null) {
                return line;
            }
            if (!process.isAlive() && !reader.isAlive() && firstLine(start) == null) {
                throw new IllegalStateException("the child process exited (status " + process.exitValue()
                    + ") without printing '" + start + "...'; its output is above");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the child process printed no '" + start + "...' within " + within);
            }
            Thread.sleep(10);
        }
    }

    /** @return the first line the child printed that starts with {@code start}, or null */
    String firstLine(final String start) {
        synchronized (lines) {
            return lines.stream().filter(line -> line.startsWith(start)).findFirst().orElse(null);
        }
    }

    /**
     * Waits for the child to exit, and for every line it printed to be shown; kills it if it does not exit in time.
     *
     * @return its exit status, or -1 if it had to be killed
     */
    int awaitExit(final Duration within) throws InterruptedException {
        int status = -1;
        if (process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
            status = process.exitValue();
        } else {
            close();
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return status;
    }

    /** Kills the child if it still runs, and waits a little for it to go (interrupted: not; the status stays set). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
