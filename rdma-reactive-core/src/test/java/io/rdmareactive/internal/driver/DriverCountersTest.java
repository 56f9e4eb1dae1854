package io.rdmareactive.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.testsupport.AllocationMeter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverCountersTest {

    @TempDir
    Path directory;

    @Test
    void theFileIsOwnerOnlyAndHoldsTheSystemCounters() throws IOException {
        try (DriverCounters counters = DriverCounters.create(directory, "modes")) {
            assertThat(counters.file()).isEqualTo(directory.resolve("modes.counters")).exists();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(counters.file())))
                .isEqualTo("rw-------");
            assertThat(labels(counters)).containsExactly("messages sent = 0", "messages received = 0",
                "bytes sent = 0", "bytes received = 0", "back-pressure events = 0", "credit stalls = 0",
                "errors = 0", "loop stalls = 0");
            final Path liveness = directory.resolve("modes.counters.live");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(liveness))).as("the liveness file")
                .isEqualTo("rw-------");
            assertThat(liveness).as("the liveness file holds the owner's process id")
                .hasContent(ProcessHandle.current().pid() + "\n");
            try (Stream<Path> files = Files.list(directory)) {
                assertThat(files).as("no temporary file is left").containsExactlyInAnyOrder(counters.file(), liveness);
            }
        }
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files).as("nothing is left once closed").isEmpty();
        }
    }

    @Test
    void aMissingDirectoryIsCreatedOwnerOnly() throws IOException {
        final Path nested = directory.resolve("a/b");
        try (DriverCounters counters = DriverCounters.create(nested, "nested", 9)) {
            assertThat(counters.file()).exists();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested))).isEqualTo("rwx------");
        }
    }

    @Test
    void systemCountersCount() {
        try (DriverCounters counters = DriverCounters.create(directory, "count")) {
            counters.messagesSent().increment();
            counters.messagesReceived().getAndAddRelease(2);
            counters.bytesSent().getAndAddRelease(300);
            counters.bytesReceived().getAndAdd(400);
            counters.backPressureEvents().incrementRelease();
            counters.creditStalls().incrementRelease();
            counters.errors().increment();
            assertThat(labels(counters)).containsExactly("messages sent = 1", "messages received = 2",
                "bytes sent = 300", "bytes received = 400", "back-pressure events = 1", "credit stalls = 1",
                "errors = 1", "loop stalls = 0");
        }
    }

    @Test
    void perConnectionCountersAreAllocatedAndFreedOnDemand() {
        try (DriverCounters counters = DriverCounters.create(directory, "connections")) {
            final AtomicCounter first = counters.newCounter("connection 1 bytes sent", 100);
            final AtomicCounter second = counters.newCounter("connection 2 bytes sent", 100);
            first.getAndAddRelease(10);
            second.getAndAddRelease(20);
            assertThat(labels(counters)).contains("connection 1 bytes sent = 10", "connection 2 bytes sent = 20");
            first.close();
            first.close(); // idempotent
            assertThat(first.isClosed()).isTrue();
            assertThat(labels(counters)).contains("connection 2 bytes sent = 20")
                .noneMatch(line -> line.startsWith("connection 1"));
            final int[] typeIds = new int[1];
            counters.reader().forEach((id, typeId, key, label) -> {
                if (label.startsWith("connection 2")) {
                    typeIds[0] = typeId;
                }
            });
            assertThat(typeIds[0]).isEqualTo(100);
        }
    }

    @Test
    void theSystemTypeIdIsReserved() {
        try (DriverCounters counters = DriverCounters.create(directory, "reserved")) {
            assertThatIllegalArgumentException().isThrownBy(() -> counters.newCounter("x", DriverCounters.SYSTEM_TYPE_ID))
                .withMessageContaining("system counters");
        }
    }

    @Test
    void aFullFileSaysSo() {
        try (DriverCounters counters = DriverCounters.create(directory, "full", 9)) {
            assertThat(counters.available()).isEqualTo(1);
            counters.newCounter("the last one", 5);
            assertThatIllegalStateException().isThrownBy(() -> counters.newCounter("one too many", 5))
                .withMessageContaining("is full").withMessageContaining("all 9 counters")
                .withMessageContaining("larger maxCounters");
        }
    }

    @Test
    void closingUnlinksTheFileAndIsIdempotent() {
        final DriverCounters counters = DriverCounters.create(directory, "close");
        final AtomicCounter connection = counters.newCounter("connection", 3);
        counters.close();
        counters.close();
        assertThat(counters.isClosed()).isTrue();
        assertThat(counters.file()).doesNotExist();
        connection.close(); // after the counters: frees nothing, touches no memory
        assertThat(connection.isClosed()).isTrue();
        assertThatIllegalStateException().isThrownBy(() -> counters.newCounter("late", 3));
        assertThatIllegalStateException().isThrownBy(counters::retain);
    }

    @Test
    void aLeaseKeepsTheMemoryMappedPastClose() {
        final DriverCounters counters = DriverCounters.create(directory, "lease");
        final OffHeapMemory.Lease lease = counters.retain();
        counters.close();
        assertThat(lease.memory().isFreed()).isFalse();
        counters.errors().increment(); // still mapped: safe
        assertThat(counters.errors().get()).isEqualTo(1);
        lease.close();
        assertThat(lease.memory().isFreed()).isTrue();
    }

    @Test
    void aSecondDriverOfTheSameNameIsRefusedWhileTheFirstLives() {
        try (DriverCounters first = DriverCounters.create(directory, "twice")) {
            assertThatIllegalStateException().isThrownBy(() -> DriverCounters.create(directory, "twice"))
                .withMessageContaining("is in use by this process").withMessageContaining("its own name");
            assertThat(first.file()).exists();
        }
        DriverCounters.create(directory, "twice").close(); // free again once the first is closed
    }

    @Test
    void theFileOfADeadOwnerIsReplaced() throws IOException {
        // this process's id with another start time: a process that had this id before, now gone
        final ByteBuffer header = ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
        header.putInt(CountersLayout.MAGIC_OFFSET, CountersLayout.MAGIC);
        header.putInt(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
        header.putLong(CountersLayout.OWNER_PID_OFFSET, ProcessHandle.current().pid());
        header.putLong(CountersLayout.OWNER_START_OFFSET, 1_000L);
        final Path stale = DriverCounters.file(directory, "stale");
        Files.write(stale, header.array());
        try (DriverCounters counters = DriverCounters.create(directory, "stale", 9)) {
            assertThat(labels(counters)).hasSize(8);
            assertThat(Files.size(stale)).isEqualTo(CountersLayout.fileLength(9));
        }
    }

    @Test
    void aFileThatIsNotACountersFileIsLeftAlone() throws IOException {
        final Path other = DriverCounters.file(directory, "other");
        Files.writeString(other, "not counters");
        assertThatIllegalStateException().isThrownBy(() -> DriverCounters.create(directory, "other"))
            .withMessageContaining("is not an rdma-reactive counters file");
        assertThat(Files.readString(other)).isEqualTo("not counters");
    }

    @Test
    void namesAndCapacitiesAreChecked() {
        assertThatIllegalArgumentException().isThrownBy(() -> DriverCounters.create(directory, "a/b"))
            .withMessageContaining("letters, digits");
        assertThatIllegalArgumentException().isThrownBy(() -> DriverCounters.create(directory, ""));
        assertThatIllegalArgumentException().isThrownBy(() -> DriverCounters.create(directory, "x", 8))
            .withMessageContaining("from 9 to 65536");
        assertThatIllegalArgumentException().isThrownBy(() -> DriverCounters.create(directory, "x", 65537));
    }

    @Test
    void countingAllocatesNothing() {
        final int rounds = 100_000;
        try (DriverCounters counters = DriverCounters.create(directory, "alloc")) {
            final AtomicCounter connection = counters.newCounter("connection bytes", 9);
            final AtomicCounter sent = counters.messagesSent();
            final AtomicCounter bytes = counters.bytesSent();
            final int[] i = {0};
            final long allocated = AllocationMeter.currentThread().allocatedBy(20_000, rounds, () -> {
                sent.increment();
                bytes.getAndAddRelease(i[0]);
                connection.getAndAddOrdered(i[0]++);
                counters.creditStalls().incrementRelease();
            });
            AllocationMeter.assertNothingPerRound(allocated, rounds, "rounds of counting");
            assertThat(sent.get()).isEqualTo(rounds + 20_000);
        }
    }

    @Test
    void theToolPrintsEveryCounter() {
        try (DriverCounters counters = DriverCounters.create(directory, "tool")) {
            counters.bytesReceived().getAndAddRelease(77);
            counters.newCounter("stream 3 frames", 12).getAndAddRelease(5);
            final Output output = runTool(counters.file().toString());
            assertThat(output.status).isZero();
            assertThat(output.err).isEmpty();
            final List<String> lines = output.out.lines().toList();
            assertThat(lines.getFirst()).startsWith("# " + counters.file() + ": process "
                + ProcessHandle.current().pid() + ", at ");
            assertThat(lines.subList(1, lines.size())).containsExactly("messages sent = 0", "messages received = 0",
                "bytes sent = 0", "bytes received = 77", "back-pressure events = 0", "credit stalls = 0", "errors = 0",
                "loop stalls = 0", "stream 3 frames = 5");
        }
    }

    @Test
    void theToolExplainsWhatIsWrong() throws IOException {
        assertThat(runTool().status).isEqualTo(1);
        assertThat(runTool().err).contains("usage: CountersReaderTool");
        assertThat(runTool("--nonsense", "x").status).isEqualTo(1);
        assertThat(runTool("a", "b").err).contains("unexpected argument 'b'");
        final Output missing = runTool(directory.resolve("missing.counters").toString());
        assertThat(missing.status).isEqualTo(2);
        assertThat(missing.err).contains("no such file");
        final Path text = directory.resolve("text.counters");
        Files.writeString(text, "x".repeat(200));
        final Output notCounters = runTool(text.toString());
        assertThat(notCounters.status).isEqualTo(2);
        assertThat(notCounters.err).contains("not an rdma-reactive counters file");
        final Path empty = Files.createFile(directory.resolve("empty.counters"));
        assertThat(runTool(empty.toString()).err).contains("too short");
    }

    @Test
    void theToolStopsWatchingWhenTheOwnerIsGone() throws IOException {
        final ByteBuffer file = ByteBuffer.allocate(CountersLayout.HEADER_LENGTH + 640 * 8)
            .order(ByteOrder.nativeOrder());
        file.putInt(CountersLayout.MAGIC_OFFSET, CountersLayout.MAGIC);
        file.putInt(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
        file.putInt(CountersLayout.METADATA_LENGTH_OFFSET, 512 * 8);
        file.putInt(CountersLayout.VALUES_LENGTH_OFFSET, 128 * 8);
        file.putLong(CountersLayout.OWNER_PID_OFFSET, ProcessHandle.current().pid());
        file.putLong(CountersLayout.OWNER_START_OFFSET, 1_000L);
        final Path dead = Files.write(directory.resolve("dead.counters"), file.array());
        final Output output = runTool("--watch=1ms", dead.toString());
        assertThat(output.status).isZero();
        assertThat(output.out.lines()).as("one pass: no counters were ever allocated in it, and its owner is gone")
            .singleElement().asString().startsWith("# " + dead + ": process " + ProcessHandle.current().pid()
                + " (gone), at ");
    }

    private static List<String> labels(final DriverCounters counters) {
        final List<String> lines = new ArrayList<>();
        counters.reader().forEach((final long value, final int id, final String label) -> lines.add(label + " = " + value));
        return lines;
    }

    private static Output runTool(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = CountersReaderTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Output(int status, String out, String err) {
    }
}
