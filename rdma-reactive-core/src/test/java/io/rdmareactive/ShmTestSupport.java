package io.rdmareactive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the API tests share: servers and clients of the {@code shm} provider in a test's private shared-memory
 * directory (an {@link io.rdmareactive.testsupport.ShmTestDirectory}), and views of what a test may leave behind
 * (files, threads). A test class that also runs on verbs makes its servers and clients with the {@link TestTransport}
 * it is given instead.
 */
final class ShmTestSupport {

    /**
     * How long a test waits for something that should happen promptly; generous, as the machine is shared. The
     * Soft-RoCE guest, an emulated machine many times slower, stretches it with {@code -Drr.test.boundSeconds}.
     */
    static final Duration BOUND = Duration.ofSeconds(Long.getLong("rr.test.boundSeconds", 30));

    /** The thread names the runtime uses: event loops, server acceptors, shm connection managers, closers. */
    static final List<String> RUNTIME_THREAD_PREFIXES = List.of("rdma-loop-", "rdma-accept-", "rdma-shm-cm-",
        "rdma-close-");

    private ShmTestSupport() {
    }

    /** @return a fresh shared-memory address ({@link TestTransport#uniqueAddress}) */
    static String uniqueAddress(final String prefix) {
        return TestTransport.SHM.uniqueAddress(prefix);
    }

    /** @return a server of the {@code shm} provider in the directory ({@link TestTransport#server}) */
    static RdmaServer server(final Path directory, final String address) {
        return TestTransport.SHM.server(directory, address);
    }

    /** @return a client of the {@code shm} provider in the directory ({@link TestTransport#client}) */
    static RdmaClient client(final Path directory, final String address) {
        return TestTransport.SHM.client(directory, address);
    }

    /** @return the names of the files in the directory (not recursive), sorted */
    static List<String> files(final Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** @return each file of the directory with its size in bytes */
    static Map<String, Long> fileSizes(final Path directory) {
        final Map<String, Long> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(path -> {
                try {
                    sizes.put(path.getFileName().toString(), Files.size(path));
                } catch (final IOException ex) {
                    sizes.put(path.getFileName().toString(), -1L); // vanished while listed
                }
            });
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return sizes;
    }

    /** @return the live threads whose name starts with one of the runtime's prefixes and contains {@code marker} */
    static List<String> runtimeThreads(final String marker) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(Thread::isAlive)
            .map(Thread::getName)
            .filter(name -> RUNTIME_THREAD_PREFIXES.stream().anyMatch(name::startsWith))
            .filter(name -> name.contains(marker))
            .sorted()
            .toList();
    }

    /** @return the shm device ids ({@code <pid>-<hex>}) that own files in the directory */
    static List<String> deviceIds(final Path directory) {
        return files(directory).stream()
            .filter(name -> name.matches("[0-9]+-[0-9a-f]{8}.*"))
            .map(name -> name.substring(0, name.indexOf('-') + 9))
            .distinct()
            .sorted()
            .toList();
    }

    static long usedHeapAfterGc() {
        final Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
