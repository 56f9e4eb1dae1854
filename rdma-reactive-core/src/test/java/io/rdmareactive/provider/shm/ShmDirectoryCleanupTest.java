package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.testsupport.ChildJvm;
import io.rdmareactive.testsupport.ChildJvmLauncher;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Files left by a process that died are removed when the next device opens in the directory; files of live devices
 * are not; peers are never handed memory outside the directory.
 */
class ShmDirectoryCleanupTest {

    @ShmTestDirectory
    private Path directory;

    @Test
    void filesOfAKilledProcessAreRemovedAndFilesOfLiveDevicesKept() throws Exception {
        try (ChildJvm child = ChildJvmLauncher.of(IdleDevice.class).jvmOptions("-Xmx64m").args(directory.toString())
            .start();
             RdmaDevice live = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             MemoryRegion liveRegion = live.allocateRegion(4096, Access.LOCAL_WRITE)) {
            child.awaitLine("READY ");
            assertThat(child.lines().getFirst()).as("the child's first line").startsWith("READY ");
            final String childPrefix = child.pid() + "-";
            assertThat(names()).anyMatch(name -> name.startsWith(childPrefix));

            child.kill(); // SIGKILL: no cleanup of its own
            assertThat(names()).as("the dead child's files are still there").anyMatch(n -> n.startsWith(childPrefix));

            try (RdmaDevice next = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory)
                .build())) {
                assertThat(names()).as("files after the next device opened")
                    .noneMatch(name -> name.startsWith(childPrefix))
                    .anyMatch(name -> name.startsWith(ProcessHandle.current().pid() + "-"));
                assertThat(liveRegion.isRegistered()).isTrue();
                assertThat(next.name()).isNotBlank();
            }
        }
    }

    @Test
    void peersAreNeverGivenMemoryOutsideTheDirectory() throws IOException {
        final Path elsewhere = Files.createTempDirectory(Path.of("/tmp"), "rr-elsewhere");
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build());
             OffHeapMemory outside = OffHeapMemory.mapFile(elsewhere.resolve("ring"), 4096,
                 OffHeapMemory.FileMode.CREATE_NEW);
             OffHeapMemory inside = OffHeapMemory.mapFile(directory.resolve("my-ring"), 4096,
                 OffHeapMemory.FileMode.CREATE_NEW)) {
            assertThatThrownBy(() -> device.register(outside, Access.LOCAL_WRITE | Access.REMOTE_WRITE))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("in its directory " + directory);
            try (MemoryRegion region = device.register(inside, Access.LOCAL_WRITE | Access.REMOTE_WRITE)) {
                assertThat(region.address()).isEqualTo(inside.address());
            }
        } finally {
            Files.deleteIfExists(elsewhere);
        }
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).toList();
        }
    }

    /** The child process: opens a device, registers memory, says so, and waits to be killed. */
    public static final class IdleDevice {
        private IdleDevice() {
        }

        public static void main(final String[] args) throws Exception {
            final RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder()
                .directory(Path.of(args[0])).build());
            device.allocateRegion(8192, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            device.createCompletionQueue(16);
            System.out.println("READY " + device.name());
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
