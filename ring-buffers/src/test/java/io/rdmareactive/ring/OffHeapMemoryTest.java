package io.rdmareactive.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.ring.OffHeapMemory.FileMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OffHeapMemoryTest {

    private static final int PAGE = PageSize.get();

    @TempDir
    Path dir;

    @Test
    void allocateGivesPageAlignedZeroedMemoryOfTheRequestedLength() {
        try (OffHeapMemory memory = OffHeapMemory.allocate(4L * PAGE)) {
            assertThat(memory.address() % PAGE).isZero();
            assertThat(memory.length()).isEqualTo(4L * PAGE);
            assertThat(memory.segment().byteSize()).isEqualTo(4L * PAGE);
            assertThat(memory.buffer().capacity()).isEqualTo(4 * PAGE);
            assertThat(memory.buffer().addressOffset()).isEqualTo(memory.address());
            for (long i = 0; i < memory.length(); i += Long.BYTES) {
                assertThat(memory.segment().get(ValueLayout.JAVA_LONG, i)).as("long at %d", i).isZero();
            }
            assertThat(memory.file()).isEmpty();
        }
    }

    @Test
    void bufferViewsAreWindowsOntoTheSameMemory() {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            memory.buffer(128, 64).putLong(8, 0x1122334455667788L);
            assertThat(memory.buffer().getLong(136)).isEqualTo(0x1122334455667788L);
            assertThatThrownBy(() -> memory.buffer(PAGE - 8, 16)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> memory.buffer(-8, 16)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -4096, 100, 4097, 3 * 4096 + 1})
    void lengthsThatAreNotPositivePageMultiplesAreRejectedNamingThePageSize(final long length) {
        assertThatThrownBy(() -> OffHeapMemory.allocate(length))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("length " + length)
            .hasMessageContaining("page size " + PAGE);
        assertThatThrownBy(() -> OffHeapMemory.mapFile(dir.resolve("ring"), length, FileMode.CREATE_NEW))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("page size " + PAGE);
        assertThat(dir.resolve("ring")).doesNotExist();
    }

    @Test
    void aLengthThatIsNotAPageMultipleIsToldWhatToRoundUpTo() {
        assertThatThrownBy(() -> OffHeapMemory.allocate(PAGE + 1L))
            .hasMessageContaining("round it up to " + 2L * PAGE);
    }

    @Test
    void closingFreesTheMemoryAndIsIdempotent() {
        final OffHeapMemory memory = OffHeapMemory.allocate(PAGE);
        assertThat(memory.references()).isEqualTo(1);
        memory.close();
        assertThat(memory.isClosed()).isTrue();
        assertThat(memory.isFreed()).isTrue();
        assertThat(memory.references()).isZero();
        memory.close();
        assertThat(memory.isFreed()).isTrue();
        assertThat(memory.references()).isZero();
        assertThat(memory.toString()).contains("freed");
    }

    @Test
    void leasesKeepTheMemoryAliveUntilTheLastOneIsClosed() {
        final OffHeapMemory memory = OffHeapMemory.allocate(PAGE);
        final OffHeapMemory.Lease first = memory.acquire();
        final OffHeapMemory.Lease second = memory.acquire();
        assertThat(first.memory()).isSameAs(memory);
        assertThat(memory.references()).isEqualTo(3);

        memory.close();
        assertThat(memory.isClosed()).isTrue();
        assertThat(memory.isFreed()).isFalse();
        memory.buffer().putLong(0, 42); // still usable: the leases keep it
        assertThat(memory.buffer().getLong(0)).isEqualTo(42);

        first.close();
        first.close(); // idempotent: must not give up the second lease's reference
        assertThat(memory.references()).isEqualTo(1);
        assertThat(memory.isFreed()).isFalse();

        second.close();
        assertThat(memory.references()).isZero();
        assertThat(memory.isFreed()).isTrue();
    }

    @Test
    void closingALeaseTwiceDoesNotFreeMemoryItsOwnerStillHolds() {
        try (OffHeapMemory memory = OffHeapMemory.allocate(PAGE)) {
            final OffHeapMemory.Lease lease = memory.acquire();
            lease.close();
            lease.close();
            assertThat(memory.references()).isEqualTo(1);
            assertThat(memory.isFreed()).isFalse();
        }
    }

    @Test
    void acquiringAfterCloseFailsWithAClearMessage() {
        final OffHeapMemory memory = OffHeapMemory.allocate(PAGE);
        try (OffHeapMemory.Lease lease = memory.acquire()) {
            memory.close();
            assertThatThrownBy(memory::acquire)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed; it cannot be leased");
            assertThat(lease.memory().isFreed()).isFalse();
        }
        assertThat(memory.isFreed()).isTrue();
        assertThatThrownBy(memory::acquire).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void createNewMakesAZeroedFileOfMode0600AndUnlinksItWhenFreed() throws IOException {
        final Path file = dir.resolve("ring");
        final OffHeapMemory memory = OffHeapMemory.mapFile(file, 2L * PAGE, FileMode.CREATE_NEW);
        assertThat(file).exists();
        assertThat(Files.size(file)).isEqualTo(2L * PAGE);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(memory.file()).contains(file);
        assertThat(memory.address() % PAGE).isZero();
        assertThat(memory.length()).isEqualTo(2L * PAGE);
        for (int i = 0; i < memory.length(); i += Long.BYTES) {
            assertThat(memory.buffer().getLong(i)).isZero();
        }

        final OffHeapMemory.Lease lease = memory.acquire();
        memory.close();
        assertThat(file).as("a lease keeps the file").exists();
        lease.close();
        assertThat(memory.isFreed()).isTrue();
        assertThat(file).doesNotExist();
    }

    @Test
    void openExistingNeverUnlinks() {
        final Path file = dir.resolve("ring");
        try (OffHeapMemory creator = OffHeapMemory.mapFile(file, PAGE, FileMode.CREATE_NEW)) {
            final OffHeapMemory opener = OffHeapMemory.mapFile(file, PAGE, FileMode.OPEN_EXISTING);
            assertThat(opener.file()).contains(file);
            opener.close();
            assertThat(opener.isFreed()).isTrue();
            assertThat(file).exists();
            assertThat(creator.isFreed()).isFalse();
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void writesThroughOneMappingAreVisibleThroughAnother() {
        final Path file = dir.resolve("ring");
        try (OffHeapMemory writer = OffHeapMemory.mapFile(file, 2L * PAGE, FileMode.CREATE_NEW);
             OffHeapMemory reader = OffHeapMemory.mapFile(file, 2L * PAGE, FileMode.OPEN_EXISTING)) {
            assertThat(reader.address()).isNotEqualTo(writer.address());
            writer.buffer().putLongRelease(PAGE + 8, 0xCAFEBABEL);
            writer.buffer().putStringAscii(16, "shared");
            assertThat(reader.buffer().getLongVolatile(PAGE + 8)).isEqualTo(0xCAFEBABEL);
            assertThat(reader.buffer().getStringAscii(16)).isEqualTo("shared");
            reader.buffer().putInt(0, 7);
            assertThat(writer.buffer().getInt(0)).isEqualTo(7);
        }
    }

    @Test
    void openExistingMayMapAPrefixOfALongerFile() {
        final Path file = dir.resolve("ring");
        try (OffHeapMemory creator = OffHeapMemory.mapFile(file, 2L * PAGE, FileMode.CREATE_NEW);
             OffHeapMemory prefix = OffHeapMemory.mapFile(file, PAGE, FileMode.OPEN_EXISTING)) {
            creator.buffer().putInt(PAGE - 4, 99);
            assertThat(prefix.length()).isEqualTo(PAGE);
            assertThat(prefix.buffer().getInt(PAGE - 4)).isEqualTo(99);
        }
    }

    @Test
    void openExistingRejectsAFileShorterThanTheLengthNamingIt() {
        final Path file = dir.resolve("ring");
        try (OffHeapMemory creator = OffHeapMemory.mapFile(file, PAGE, FileMode.CREATE_NEW)) {
            assertThatThrownBy(() -> OffHeapMemory.mapFile(file, 2L * PAGE, FileMode.OPEN_EXISTING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("holds " + PAGE + " bytes");
            assertThat(file).as("a failed open leaves the file alone").exists();
            assertThat(creator.isFreed()).isFalse();
        }
    }

    @Test
    void mappingAMissingFileFailsNamingIt() {
        final Path file = dir.resolve("missing");
        assertThatThrownBy(() -> OffHeapMemory.mapFile(file, PAGE, FileMode.OPEN_EXISTING))
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(file.toString())
            .hasMessageContaining("no such file");
        assertThat(file).doesNotExist();
    }

    @Test
    void creatingInAMissingDirectoryFailsNamingTheDirectory() {
        final Path file = dir.resolve("no-such-dir").resolve("ring");
        assertThatThrownBy(() -> OffHeapMemory.mapFile(file, PAGE, FileMode.CREATE_NEW))
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(file.toString())
            .hasMessageContaining(file.getParent() + " does not exist");
    }

    @Test
    void creatingAFileThatExistsFailsNamingItAndLeavesItAlone() throws IOException {
        final Path file = dir.resolve("ring");
        Files.writeString(file, "someone else's");
        assertThatThrownBy(() -> OffHeapMemory.mapFile(file, PAGE, FileMode.CREATE_NEW))
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(file.toString())
            .hasMessageContaining("already exists");
        assertThat(file).hasContent("someone else's");
    }

    @Test
    void aCreateThatFailsAfterCreatingTheFileLeavesNoFileBehind() {
        final Path file = dir.resolve("ring");
        // 2^60 bytes: larger than any file system allows a file to be, or than any address space can map
        final long tooLarge = 1L << 60;
        assertThatThrownBy(() -> OffHeapMemory.mapFile(file, tooLarge, FileMode.CREATE_NEW))
            .isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(file.toString());
        assertThat(file).doesNotExist();
    }
}
