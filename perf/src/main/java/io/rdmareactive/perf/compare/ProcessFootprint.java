package io.rdmareactive.perf.compare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the process holds now: its live platform threads as the JVM counts them ({@code ThreadMXBean}, not
 * {@code Thread.activeCount()}, which sees only one thread group), those of them named {@code rdma-...} (the
 * library's driver, worker, acceptor and connection-manager threads, both sides of every connection since both run
 * in this JVM), and the resident set size from {@code /proc/self/status}.
 */
final class ProcessFootprint {

    static final String LIBRARY_PREFIX = "rdma-";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessFootprint() {
    }

    static Results.Footprint read() {
        final Map<String, Integer> kinds = new TreeMap<>();
        int library = 0;
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(LIBRARY_PREFIX)) {
                library++;
                kinds.merge(kind(info.getThreadName()), 1, Integer::sum);
            }
        }
        return new Results.Footprint(THREADS.getThreadCount(), library, kinds, residentBytes());
    }

    /**
     * @return a library thread's kind: its name without what names the instance ({@code rdma-driver-client-1-2}:
     * {@code rdma-driver}; a provider's own threads keep the provider, {@code rdma-shm-cm-3}: {@code rdma-shm-cm})
     */
    static String kind(final String name) {
        final String[] parts = name.split("-", 4);
        if (parts.length < 2) {
            return name;
        }
        final boolean provider = parts[1].equals("shm") || parts[1].equals("verbs");
        return provider && parts.length > 2 ? parts[0] + "-" + parts[1] + "-" + parts[2] : parts[0] + "-" + parts[1];
    }

    /** @return how many live threads are the library's now */
    static int libraryThreads() {
        int library = 0;
        for (final ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(LIBRARY_PREFIX)) {
                library++;
            }
        }
        return library;
    }

    /** @return this process's resident set size from /proc (0 where there is no /proc) */
    static long residentBytes() {
        try {
            for (final String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (final IOException | NumberFormatException ex) {
            return 0;
        }
        return 0;
    }
}
