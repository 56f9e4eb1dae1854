package io.rdmareactive.perf.compare;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's own counters, read before and after a measured window: process CPU time (all threads, the
 * transports' included, since both sides run in this JVM), bytes allocated on the heap by all threads
 * ({@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}), and garbage collections.
 */
final class ProcessMeter {

    private static final com.sun.management.OperatingSystemMXBean OS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** One reading. */
    record Reading(long nanoTime, long cpuNanos, long allocatedBytes, long gcCount) {

        /** @return what happened between {@code earlier} and this reading */
        Usage since(final Reading earlier) {
            return new Usage(nanoTime - earlier.nanoTime, cpuNanos - earlier.cpuNanos,
                allocatedBytes - earlier.allocatedBytes, gcCount - earlier.gcCount);
        }
    }

    /** The difference between two readings. */
    record Usage(long elapsedNanos, long cpuNanos, long allocatedBytes, long gcCount) {

        /** @return CPU nanoseconds per message, NaN when there were none */
        double cpuNanosPer(final long messages) {
            return messages > 0 ? (double) cpuNanos / messages : Double.NaN;
        }

        /** @return heap bytes allocated per message, NaN when there were none */
        double allocatedBytesPer(final long messages) {
            return messages > 0 ? (double) allocatedBytes / messages : Double.NaN;
        }
    }

    private ProcessMeter() {
    }

    static Reading read() {
        long collections = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            collections += Math.max(0, collector.getCollectionCount());
        }
        return new Reading(System.nanoTime(), OS.getProcessCpuTime(), THREADS.getTotalThreadAllocatedBytes(),
            collections);
    }

    /** @return the heap in use now, in bytes */
    static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
