package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Another process reads a live driver's counters through the file, with nothing but the tool's main method. */
class CountersReaderToolTest {

    private static final Duration CHILD_BOUND = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @Test
    void anotherProcessSeesTheValuesThisOneSet() throws IOException, InterruptedException {
        try (DriverCounters counters = DriverCounters.create(directory, "watched")) {
            counters.messagesSent().getAndAddRelease(42);
            counters.bytesSent().getAndAddRelease(42 * 64);
            counters.creditStalls().increment();
            final AtomicCounter connection = counters.newCounter("connection 7 bytes received (peer-a)", 1001);
            connection.getAndAddRelease(123_456_789_012L);
            counters.newCounter("freed before the read", 1001).close();

            try (ChildJvm child = ChildJvmLauncher.of(CountersReaderTool.class)
                .jvmOptions("-Xmx64m", "-XX:TieredStopAtLevel=1").args(counters.file().toString())
                .bound(CHILD_BOUND).start()) {
                final int status = child.awaitExit();
                final String output = child.output();
                assertThat(status).as("exit status; the tool printed:%n%s", output).isZero();
                final List<String> lines = output.lines().toList();
                assertThat(lines.getFirst()).startsWith("# " + counters.file() + ": process "
                    + ProcessHandle.current().pid() + ", at ");
                assertThat(lines.subList(1, lines.size())).containsExactly(
                    "messages sent = 42",
                    "messages received = 0",
                    "bytes sent = 2688",
                    "bytes received = 0",
                    "back-pressure events = 0",
                    "credit stalls = 1",
                    "errors = 0",
                    "loop stalls = 0",
                    "connection 7 bytes received (peer-a) = 123456789012");
            }
        }
    }

    @Test
    void theWatchPeriodIsADurationOfAtLeastAMillisecond() {
        assertThat(watchError("--watch=10")).contains("the watch period '10' is not a duration: it has no unit")
            .contains("usage: CountersReaderTool");
        assertThat(watchError("--watch=")).contains("the watch period '' is not a duration");
        assertThat(watchError("--watch=500us")).contains("the watch period must be at least 1ms");
        assertThat(watchError("--watch=0s")).contains("the watch period must be at least 1ms");
    }

    /** @return what the tool printed to standard error for a bad watch period, after checking it exited with 1 */
    private String watchError(final String watch) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = CountersReaderTool.run(new String[] {watch, directory.resolve("x.counters").toString()},
            new PrintStream(OutputStream.nullOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as(watch).isEqualTo(1);
        return err.toString(StandardCharsets.UTF_8);
    }
}
