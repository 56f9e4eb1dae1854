package io.rdmareactive.samples;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What a process holds resident, by kind, read from {@code /proc/self/smaps} and the JVM's management beans: the
 * shared-memory files (a connection's rings, queues and region table, the counters file: every mapping of a file
 * under the given directories), the direct buffers, and the Java heap; the rest is the JVM's own (heap pages touched,
 * code, class metadata, thread stacks, the collector's structures). Linux only; elsewhere {@link #read} says it
 * cannot.
 *
 * @param residentBytes    the whole resident set (the sum of every mapping's Rss)
 * @param sharedFileBytes  resident bytes of files under the directories
 * @param heapUsed         the Java heap's used bytes
 * @param heapCommitted    the Java heap's committed bytes (not all of them resident)
 * @param directBytes      bytes of the JVM's direct buffers
 */
record MemoryFootprint(long residentBytes, long sharedFileBytes, long heapUsed, long heapCommitted, long directBytes) {

    /** A mapping's header line in smaps: its address range first. */
    private static final java.util.regex.Pattern MAPPING = java.util.regex.Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    /**
     * @param directories where the provider's files live (their mappings are counted as shared-memory files)
     * @return the footprint now, or null where {@code /proc/self/smaps} cannot be read
     */
    static MemoryFootprint read(final List<Path> directories) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        } catch (final IOException | RuntimeException ex) {
            return null;
        }
        long resident = 0;
        long shared = 0;
        boolean inDirectories = false;
        for (final String line : lines) {
            if (MAPPING.matcher(line).lookingAt()) {
                // a mapping's header: address range, permissions, offset, device, inode[, path]
                final String[] fields = line.trim().split("\\s+", 6);
                final String path = fields.length == 6 ? fields[5] : "";
                inDirectories = directories.stream().anyMatch(directory -> path.startsWith(directory.toString()));
            } else if (line.startsWith("Rss:")) {
                final long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                resident += kib << 10;
                if (inDirectories) {
                    shared += kib << 10;
                }
            }
        }
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if ("direct".equals(pool.getName())) {
                direct = pool.getMemoryUsed();
            }
        }
        final java.lang.management.MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new MemoryFootprint(resident, shared, heap.getUsed(), heap.getCommitted(), direct);
    }

    /** @return one line: the total, the files (and their share per connection), the direct buffers, the heap */
    String describe(final int connections) {
        return String.format(Locale.ROOT, "resident %d MiB, of which shared-memory files %d MiB (%.1f MiB per "
                + "connection, both ends in this process: rings, queues, region tables; and the counters file); "
                + "direct buffers %d MiB; Java heap %d MiB used, %d MiB committed (the rest of the resident set is "
                + "the JVM's own: heap pages touched, code, class metadata, thread stacks, the collector)",
            residentBytes >> 20, sharedFileBytes >> 20, sharedFileBytes / (double) Math.max(1, connections) / (1 << 20),
            directBytes >> 20, heapUsed >> 20, heapCommitted >> 20);
    }
}
