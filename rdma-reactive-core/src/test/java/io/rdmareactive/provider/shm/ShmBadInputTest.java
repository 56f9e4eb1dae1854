package io.rdmareactive.provider.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.CompletionQueue;
import io.rdmareactive.spi.ConnectRequest;
import io.rdmareactive.spi.ConnectionRejectedException;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.Listener;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.QueuePairOptions;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.RegistrationLimitException;
import io.rdmareactive.testsupport.ShmTestDirectory;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the shared-memory provider: each mistake gets an exception whose message says what was wrong and what
 * to do, and a failed setup leaves no file, mapping or thread behind.
 */
class ShmBadInputTest {

    @ShmTestDirectory
    private Path directory;

    private RdmaDevice open(final DeviceOptions.Builder options) {
        return RdmaProviders.named("shm").open(options.directory(directory).build());
    }

    private RdmaDevice open() {
        return open(DeviceOptions.builder());
    }

    @Test
    void socketPathTooLongForUnixSocketsIsRefusedWithAdvice() throws IOException {
        final Path deep = Files.createDirectories(directory.resolve("x".repeat(60)).resolve("y".repeat(40)));
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(deep).build())) {
            assertThatThrownBy(() -> device.listen("orders"))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("107")
                .hasMessageContaining("shorter directory");
            assertThatThrownBy(() -> device.connect("orders", null, new byte[0], Duration.ofSeconds(1)))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("107");
        }
        assertNothingLeft(deep);
    }

    @Test
    void malformedAddressIsRefused() {
        try (RdmaDevice device = open()) {
            assertThatThrownBy(() -> device.listen("no spaces/or slashes"))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("is not a shared-memory address")
                .hasMessageContaining("letters, digits").hasMessageContaining("absolute socket path");
        }
    }

    @Test
    void directoryThatCannotBeCreatedIsRefusedWithAdvice() throws IOException {
        final Path file = Files.createFile(directory.resolve("a-file"));
        assertThatThrownBy(() -> RdmaProviders.named("shm").open(DeviceOptions.builder()
            .directory(file.resolve("sub")).build()))
            .isInstanceOf(RdmaException.class)
            .hasMessageContaining(file.resolve("sub").toString())
            .hasMessageContaining("choose a writable directory");
        assertThatThrownBy(() -> RdmaProviders.named("shm").open(DeviceOptions.builder()
            .directory(Path.of("/proc/rdma-reactive-cannot-exist")).build()))
            .isInstanceOf(RdmaException.class)
            .hasMessageContaining("/proc/rdma-reactive-cannot-exist");
        assertThatThrownBy(() -> RdmaProviders.named("shm").open(DeviceOptions.builder().directory(file).build()))
            .isInstanceOf(RdmaException.class)
            .hasMessageContaining("not a directory");
        assertThat(providerThreads()).isEmpty();
    }

    @Test
    void directoryIsPrivateToTheUser() throws IOException {
        final Path fresh = directory.resolve("fresh");
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(fresh).build());
             MemoryRegion region = device.allocateRegion(4096, Access.LOCAL_WRITE)) {
            assertThat(Files.getPosixFilePermissions(fresh)).isEqualTo(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            try (Stream<Path> files = Files.list(fresh)) {
                for (final Path path : files.toList()) {
                    assertThat(Files.getPosixFilePermissions(path)).as(path.toString()).isEqualTo(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                }
            }
            assertThat(region.isRegistered()).isTrue();
        }
    }

    @Test
    void regionLengthMustBeAPageMultiple() {
        try (RdmaDevice device = open()) {
            assertThatThrownBy(() -> device.allocateRegion(1000, Access.LOCAL_WRITE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000")
                .hasMessageContaining("page size 4096")
                .hasMessageContaining("round it up to 4096");
            assertThat(device.registeredBytes()).isZero();
        }
        assertNothingLeft(directory);
    }

    @Test
    void registrationOverTheLimitIsRefusedNamingTheLimit() {
        try (RdmaDevice device = open(DeviceOptions.builder().maxRegisteredBytes(8192))) {
            final MemoryRegion first = device.allocateRegion(4096, Access.LOCAL_WRITE);
            final Set<Path> before = files(directory);
            assertThatThrownBy(() -> device.allocateRegion(8192, Access.LOCAL_WRITE))
                .isInstanceOf(RegistrationLimitException.class)
                .hasMessageContaining("8192")
                .hasMessageContaining("ulimit -l")
                .hasMessageContaining("LimitMEMLOCK");
            assertThat(device.registeredBytes()).isEqualTo(4096);
            assertThat(files(directory)).isEqualTo(before);
            first.close();
            assertThat(device.registeredBytes()).isZero();
            device.allocateRegion(8192, Access.LOCAL_WRITE).close(); // the room is back
        }
        assertNothingLeft(directory);
    }

    @Test
    void remoteAccessToMemoryPeersCannotMapIsRefused() {
        try (RdmaDevice device = open(); OffHeapMemory memory = OffHeapMemory.allocate(4096)) {
            assertThatThrownBy(() -> device.register(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("mapped from a file")
                .hasMessageContaining("allocateRegion");
            try (MemoryRegion local = device.register(memory, Access.LOCAL_WRITE)) {
                assertThat(local.address()).isEqualTo(memory.address());
            }
            assertThat(device.registeredBytes()).isZero();
        }
    }

    @Test
    void secondListenerOnTheSameAddressIsRefused() {
        try (RdmaDevice first = open(); RdmaDevice second = open()) {
            try (Listener listener = first.listen("orders")) {
                assertThatThrownBy(() -> second.listen("orders"))
                    .isInstanceOf(RdmaException.class)
                    .hasMessageContaining("'orders' is in use");
                assertThat(listener.address()).isEqualTo("orders");
            }
            try (Listener again = second.listen("orders")) { // free again once the first one closed
                assertThat(again.address()).isEqualTo("orders");
            }
        }
        assertNothingLeft(directory);
    }

    @Test
    void socketLeftByADeadListenerIsReplaced() throws IOException {
        final Path socket = directory.resolve("stale.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertThat(socket).exists(); // closing a UNIX listener leaves its file behind, as a dead process does
        try (RdmaDevice device = open(); Listener listener = device.listen("stale")) {
            assertThat(listener.address()).isEqualTo("stale");
        }
        assertThat(socket).doesNotExist();
    }

    @Test
    void connectWithoutListenerOrWithTooMuchPrivateDataFailsClearly() {
        try (RdmaDevice device = open()) {
            final CompletionQueue cq = device.createCompletionQueue(16);
            final QueuePairOptions options = QueuePairOptions.builder(cq, cq).build();
            final Set<Path> before = files(directory);
            assertThatThrownBy(() -> device.connect("nobody", options, new byte[0], Duration.ofSeconds(1)))
                .isInstanceOf(RdmaException.class)
                .hasMessageContaining("no listener at 'nobody'")
                .hasMessageContaining("start the listening side first");
            assertThatThrownBy(() -> device.connect("nobody", options, new byte[57], Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 56 bytes");
            assertThat(files(directory)).isEqualTo(before);
        }
        assertNothingLeft(directory);
    }

    @Test
    void rejectedConnectLeavesNothingBehind() throws Exception {
        try (RdmaDevice server = open(); RdmaDevice client = open(); Listener listener = server.listen("picky")) {
            final CompletionQueue cq = client.createCompletionQueue(16);
            final Set<Path> before = files(directory);
            final CompletableFuture<Void> rejecting = CompletableFuture.runAsync(() -> {
                final ConnectRequest request = listener.accept(Duration.ofSeconds(10));
                request.reject(new byte[] {42});
            });
            assertThatThrownBy(() -> client.connect("picky", QueuePairOptions.builder(cq, cq).build(), new byte[0],
                Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(ConnectionRejectedException.class,
                    rejected -> assertThat(rejected.privateData()).containsExactly(42));
            rejecting.get();
            assertThat(files(directory)).isEqualTo(before);
        }
        assertNothingLeft(directory);
    }

    private static Set<Path> files(final Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.collect(Collectors.toSet());
        } catch (final IOException ex) {
            throw new AssertionError(ex);
        }
    }

    /** No file in the directory, no mapping of it in this process, no connection-manager thread. */
    private static void assertNothingLeft(final Path dir) {
        assertThat(files(dir)).as("files left in " + dir).isEmpty();
        assertThat(mappingsOf(dir)).as("mappings of " + dir).isEmpty();
        assertThat(providerThreads()).as("provider threads").isEmpty();
    }

    static List<String> mappingsOf(final Path dir) {
        try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
            return maps.filter(line -> line.contains(dir.toString())).toList();
        } catch (final IOException ex) {
            return List.of(); // not Linux: nothing to check
        }
    }

    static List<String> providerThreads() {
        // the connection-manager thread may take a moment to end after close() returns (it is joined, bounded)
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
            .filter(name -> name.startsWith("rdma-shm-")).filter(name -> !name.isEmpty()).toList();
    }
}
