package io.rdmareactive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * What the API tests share: a private shared-memory directory per test, servers and clients of the {@code shm}
 * provider in it, and views of what a test may leave behind (files, threads).
 */
final class ShmTestSupport {

    /**
     * How long a test waits for something that should happen promptly; generous, as the machine is shared. The
     * Soft-RoCE guest, an emulated machine many times slower, stretches it with {@code -Drr.test.boundSeconds}.
     */
    static final Duration BOUND = Duration.ofSeconds(Long.getLong("rr.test.boundSeconds", 30));

    /**
     * The liveness timeout of the servers and clients made here, where a test does not set its own: the library's
     * default unless {@code -Drr.test.livenessSeconds} says otherwise (the Soft-RoCE guest, where a thread of a
     * loaded emulated machine can stand still for seconds).
     */
    private static final long LIVENESS_SECONDS = Long.getLong("rr.test.livenessSeconds", 0);

    /** The thread names the runtime uses: event loops, server acceptors, shm connection managers, closers. */
    static final List<String> RUNTIME_THREAD_PREFIXES = List.of("rdma-loop-", "rdma-accept-", "rdma-shm-cm-",
        "rdma-close-");

    private ShmTestSupport() {
    }

    static Path newDirectory() {
        try {
            return Files.createTempDirectory(Path.of("/tmp"), "rr");
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static void deleteDirectory(final Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        // the library may still be removing files of its own (a loop closing a connection): walk again if one vanishes
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
                return;
            } catch (final IOException ex) {
                throw new UncheckedIOException(ex);
            } catch (final UncheckedIOException ex) {
                if (attempt == 5 || !(ex.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw ex;
                }
            }
        }
    }

    /** @return a fresh address, so that thread names and socket files of one test never meet another's */
    static String uniqueAddress(final String prefix) {
        if ("verbs".equals(provider())) {
            return io.rdmareactive.provider.verbs.VerbsTestEnvironment.uniqueAddress();
        }
        return prefix + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
    }

    static RdmaServer server(final Path directory, final String address) {
        final RdmaServer server = RdmaServer.create().provider(provider()).directory(directory).address(address)
            .idleStrategy("backoff");
        return LIVENESS_SECONDS > 0 ? server.liveness(Duration.ofSeconds(1), Duration.ofSeconds(LIVENESS_SECONDS))
            : server;
    }

    static RdmaClient client(final Path directory, final String address) {
        final RdmaClient client = RdmaClient.create().provider(provider()).directory(directory).address(address)
            .idleStrategy("backoff");
        return LIVENESS_SECONDS > 0 ? client.liveness(Duration.ofSeconds(1), Duration.ofSeconds(LIVENESS_SECONDS))
            : client;
    }

    /** The system property that runs these tests on another provider ({@code verbs} in the Soft-RoCE guest). */
    static final String PROVIDER_PROPERTY = "rr.test.provider";
    /** The system property that scales message counts down where the transport is slow (emulated hardware). */
    static final String SCALE_PROPERTY = "rr.test.scale";

    /** @return the provider the API tests run on: {@code shm} unless {@link #PROVIDER_PROPERTY} says otherwise */
    static String provider() {
        return System.getProperty(PROVIDER_PROPERTY, "shm");
    }

    /** @return {@code count} scaled by {@link #SCALE_PROPERTY} (1 by default), at least {@code floor} */
    static long scaled(final long count, final long floor) {
        final double scale = Double.parseDouble(System.getProperty(SCALE_PROPERTY, "1"));
        return Math.max(floor, (long) (count * scale));
    }

    /** @return the JVM options that carry this JVM's test provider and scale into a child JVM */
    static List<String> childProperties() {
        final List<String> options = new java.util.ArrayList<>();
        for (final String key : List.of(PROVIDER_PROPERTY, SCALE_PROPERTY)) {
            final String value = System.getProperty(key);
            if (value != null) {
                options.add("-D" + key + "=" + value);
            }
        }
        return options;
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
