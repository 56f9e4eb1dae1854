package io.rdmareactive.internal.driver;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * Prints the counters of a running (or dead) driver from outside its process. Users run {@code rdma-reactive stat}
 * (the command-line tool, {@code bin/rdma-reactive}), which lists a directory's counters files and prints each through
 * {@link #run}; this class reads one file and can also run on its own:
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *     -cp rdma-reactive-core.jar:... io.rdmareactive.internal.driver.CountersReaderTool [--watch[=1s]] FILE
 * </pre>
 *
 * {@code FILE} is a driver's {@code <directory>/<name>.counters} (see {@link DriverCounters}). The tool maps it
 * read-only, so it needs only read permission and can never disturb the driver, and prints one line per counter,
 * {@code label = value}, after a comment line that starts with {@code #}; that line says {@code (gone)} after the
 * process id when the driver's process is gone (it does not run here and no one holds the file's liveness lock): the
 * values are the last it wrote, and the next runtime started in that directory removes the file. With {@code --watch}
 * it prints again every period (default one second, at least a millisecond, written as {@link Durations} reads it)
 * until the driver's process is gone or the tool is stopped.
 *
 * <p>Exit status: 0 after printing, 1 for wrong arguments, 2 if the file cannot be read or is not a counters file.
 */
public final class CountersReaderTool {

    static final String USAGE = "usage: CountersReaderTool [--watch[=<period>]] <counters file>  "
        + "(period: at least 1ms, e.g. 500ms or 2s, default 1s)";

    private static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    private static final Duration MIN_PERIOD = Duration.ofMillis(1);

    private CountersReaderTool() {
    }

    /**
     * Prints the counters; see the class comment.
     *
     * @param args {@code [--watch[=<period>]] <counters file>}
     */
    public static void main(final String[] args) {
        final int status = run(args, System.out, System.err);
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * What {@link #main} does, without exiting.
     *
     * @param args {@code [--watch[=<period>]] <counters file>}
     * @param out  where the counters go
     * @param err  where problems go
     * @return the exit status
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        Duration period = null;
        Path file = null;
        for (final String arg : args) {
            if (arg.equals("--watch") || arg.startsWith("--watch=")) {
                try {
                    period = arg.equals("--watch") ? DEFAULT_PERIOD
                        : Durations.parse(arg.substring("--watch=".length()));
                } catch (final IllegalArgumentException ex) {
                    err.println("the watch period " + ex.getMessage() + "; " + USAGE);
                    return 1;
                }
                if (period.compareTo(MIN_PERIOD) < 0) {
                    err.println("the watch period must be at least 1ms; " + USAGE);
                    return 1;
                }
            } else if (arg.startsWith("-") || file != null) {
                err.println("unexpected argument '" + arg + "'; " + USAGE);
                return 1;
            } else {
                file = Path.of(arg);
            }
        }
        if (file == null) {
            err.println(USAGE);
            return 1;
        }
        try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            final long size = channel.size();
            if (size > Integer.MAX_VALUE) {
                err.println("cannot read " + file + ": it is " + size + " bytes long, too long for a counters file");
                return 2;
            }
            final MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            final UnsafeBuffer whole = new UnsafeBuffer(segment.address(), (int) size);
            final String problem = CountersLayout.problem(whole, size);
            if (problem != null) {
                err.println("cannot read " + file + ": " + problem);
                return 2;
            }
            final int metadataLength = whole.getInt(CountersLayout.METADATA_LENGTH_OFFSET);
            final int valuesLength = whole.getInt(CountersLayout.VALUES_LENGTH_OFFSET);
            final long pid = whole.getLong(CountersLayout.OWNER_PID_OFFSET);
            final long start = whole.getLong(CountersLayout.OWNER_START_OFFSET);
            final CountersReader reader = new CountersReader(
                new UnsafeBuffer(whole, CountersLayout.HEADER_LENGTH, metadataLength),
                new UnsafeBuffer(whole, CountersLayout.HEADER_LENGTH + metadataLength, valuesLength),
                StandardCharsets.UTF_8);
            while (true) {
                final boolean alive = DriverCounters.ownerRuns(file, pid, start);
                out.println("# " + file + ": process " + pid + (alive ? "" : " (gone)") + ", at " + Instant.now());
                reader.forEach((final long value, final int id, final String label) ->
                    out.println(label + " = " + value));
                out.flush();
                if (period == null || !alive) {
                    return 0;
                }
                Thread.sleep(period);
            }
        } catch (final NoSuchFileException ex) {
            err.println("cannot read " + file + ": no such file");
            return 2;
        } catch (final IOException | RuntimeException ex) {
            err.println("cannot read " + file + ": " + ex);
            return 2;
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }
}
