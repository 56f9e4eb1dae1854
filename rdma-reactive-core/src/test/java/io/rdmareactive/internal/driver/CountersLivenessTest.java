package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The liveness lock beside a counters file, seen from other processes: a file whose owner's process id looks gone
 * (as one in another PID namespace does) is kept, refused to a driver of the same name and shown live by the tool while
 * a process holds its lock, and removed once that process is killed; this process's own lock survives readers of the
 * counters file in this process and a second driver refused through another path to the directory.
 */
class CountersLivenessTest {

    /** Names as a runtime's: {@code <provider>-<pid>-<n>}. */
    private static final Pattern NAMES = Pattern.compile("[A-Za-z0-9._-]+-(?<pid>[0-9]{1,19})-[0-9]{1,19}");

    @TempDir
    Path directory;

    private final List<ChildJvm> children = new ArrayList<>();

    @AfterEach
    void killChildren() {
        children.forEach(ChildJvm::close);
    }

    @Test
    void aFileWhoseProcessLooksGoneIsKeptWhileAnotherProcessHoldsItsLockAndRemovedOnceItIsKilled() throws Exception {
        final long dead = deadPid();
        final String name = "shm-" + dead + "-1";
        final Path counters = DriverCounters.file(directory, name);
        final Path liveness = CountersLiveness.of(counters);
        final ChildJvm holder = child(Holder.class, liveness.toString());
        holder.awaitLine("HOLDING");
        writeCountersFile(counters, dead);

        assertThat(DriverCounters.removeAbandoned(directory, NAMES)).as("removed while the lock is held").isEmpty();
        assertThat(counters).exists();
        assertThat(liveness).exists();
        assertThat(toolHeader(counters)).as("the tool's first line").doesNotContain("(gone)")
            .startsWith("# " + counters + ": process " + dead + ", at ");
        assertThatIllegalStateException().isThrownBy(() -> DriverCounters.create(directory, name))
            .withMessageContaining("is in use by another process, which holds the lock of " + liveness);
        assertThat(counters).as("left to its owner").exists();

        holder.kill();
        assertThat(holder.isAlive()).isFalse();
        assertThat(toolHeader(counters)).as("the tool's first line once the holder is gone")
            .startsWith("# " + counters + ": process " + dead + " (gone), at ");
        final Path temporary = Files.writeString(directory.resolve("." + name + ".counters." + dead + ".1f2e3d.tmp"),
            "a temporary file of a create that was killed");
        assertThat(DriverCounters.removeAbandoned(directory, NAMES)).as("removed once the holder is gone")
            .containsExactlyInAnyOrder(counters, temporary, liveness);
        assertThat(directory).isEmptyDirectory();
    }

    @Test
    void theLockSurvivesReadersOfTheCountersFileAndASecondDriverRefusedThroughAnotherPath() throws Exception {
        final Path link = Files.createSymbolicLink(directory.resolve("link"), Files.createDirectory(
            directory.resolve("real")));
        try (DriverCounters counters = DriverCounters.create(directory.resolve("real"), "held")) {
            final Path liveness = CountersLiveness.of(counters.file());
            // a reader in this process opens and closes the counters file: a lock on it would be dropped now
            assertThat(toolHeader(counters.file())).doesNotContain("(gone)");
            assertThatIllegalStateException().isThrownBy(() -> DriverCounters.create(link, "held"))
                .withMessageContaining("is in use by this process");
            final ChildJvm probe = child(Probe.class, liveness.toString());
            probe.awaitExit(Duration.ofSeconds(60));
            assertThat(probe.output()).as("what another process sees").contains("HELD true");
        }
    }

    /** @return the id of a process that ran and is gone */
    private static long deadPid() throws Exception {
        final Process process = new ProcessBuilder("true").start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(process.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        return process.pid();
    }

    /** Writes a counters file of 8 counters, none allocated, whose owner is {@code pid} (start time unknown). */
    private static void writeCountersFile(final Path file, final long pid) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(CountersLayout.HEADER_LENGTH + 640 * 8)
            .order(ByteOrder.nativeOrder());
        bytes.putInt(CountersLayout.MAGIC_OFFSET, CountersLayout.MAGIC);
        bytes.putInt(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
        bytes.putInt(CountersLayout.METADATA_LENGTH_OFFSET, 512 * 8);
        bytes.putInt(CountersLayout.VALUES_LENGTH_OFFSET, 128 * 8);
        bytes.putLong(CountersLayout.OWNER_PID_OFFSET, pid);
        bytes.putLong(CountersLayout.OWNER_START_OFFSET, -1L);
        Files.write(file, bytes.array());
    }

    /** @return the first line the tool prints for {@code file}, run in this process */
    private static String toolHeader(final Path file) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = CountersReaderTool.run(new String[] {file.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).as("the tool's status; it said %s", err.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    }

    private ChildJvm child(final Class<?> main, final String argument) {
        final ChildJvm child = ChildJvmLauncher.of(main).jvmOptions("-Xmx64m", "-XX:TieredStopAtLevel=1")
            .args(argument).start();
        children.add(child);
        return child;
    }

    /** Claims the liveness file given, as a driver in another PID namespace would, says HOLDING, waits to be killed. */
    public static final class Holder {
        private Holder() {
        }

        public static void main(final String[] args) throws IOException {
            final CountersLiveness liveness = CountersLiveness.claim(Path.of(args[0]));
            System.out.println(liveness == null ? "REFUSED" : "HOLDING");
            System.out.flush();
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MINUTES.toNanos(2));
        }
    }

    /** Says whether another process holds the liveness file given: {@code HELD true} or {@code HELD false}. */
    public static final class Probe {
        private Probe() {
        }

        public static void main(final String[] args) {
            System.out.println("HELD " + CountersLiveness.heldElsewhere(Path.of(args[0])));
            System.out.flush();
        }
    }
}
