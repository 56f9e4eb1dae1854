package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.OffHeapMemory;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * What a queue pair sees of its connected peer: the peer's queue pair file (its receive queue and state), its
 * region table, its receive completion queue, and mappings of the peer's regions made on first use. Everything in
 * these files is written by another process and checked before use.
 */
final class PeerView implements AutoCloseable {

    private final ShmDirectory directory;
    private final String deviceId;
    private final OffHeapMemory qpMemory;
    private final OffHeapMemory tableMemory;
    private final OffHeapMemory cqMemory;
    final QueuePairFile queuePair;
    final RegionTable regions;
    final CompletionRing receiveQueue;
    private final OffHeapMemory[] mappings = new OffHeapMemory[RegionTable.ENTRIES];
    private final int[] mappedGenerations = new int[RegionTable.ENTRIES];

    private PeerView(final ShmDirectory directory, final String deviceId, final OffHeapMemory qpMemory, final OffHeapMemory tableMemory,
                     final OffHeapMemory cqMemory, final QueuePairFile queuePair, final RegionTable regions,
                     final CompletionRing receiveQueue) {
        this.directory = directory;
        this.deviceId = deviceId;
        this.qpMemory = qpMemory;
        this.tableMemory = tableMemory;
        this.cqMemory = cqMemory;
        this.queuePair = queuePair;
        this.regions = regions;
        this.receiveQueue = receiveQueue;
    }

    /**
     * Maps a peer's files and checks that they hold what they should.
     *
     * @return the view
     * @throws IllegalStateException naming the file that is missing or malformed
     */
    static PeerView attach(final ShmDirectory directory, final String deviceId, final int qpNumber) {
        OffHeapMemory qp = null;
        OffHeapMemory table = null;
        OffHeapMemory cq = null;
        try {
            final Path qpFile = directory.queuePair(deviceId, qpNumber);
            qp = OffHeapMemory.mapFile(qpFile, fileSize(qpFile), OffHeapMemory.FileMode.OPEN_EXISTING);
            final QueuePairFile queuePair = QueuePairFile.attach(qp.buffer());
            if (queuePair == null || queuePair.qpNumber() != qpNumber) {
                throw new IllegalStateException("the peer's queue pair file " + qpFile + " is malformed");
            }
            final Path tableFile = directory.regionTable(deviceId);
            table = OffHeapMemory.mapFile(tableFile, io.rdmareactive.ring.PageSize.roundUp(RegionTable.LENGTH),
                OffHeapMemory.FileMode.OPEN_EXISTING);
            final RegionTable regions = new RegionTable(table.buffer());
            if (!regions.isValid()) {
                throw new IllegalStateException("the peer's region table " + tableFile + " is malformed");
            }
            final Path cqFile = directory.completionQueue(deviceId, queuePair.receiveCompletionQueue());
            cq = OffHeapMemory.mapFile(cqFile, fileSize(cqFile), OffHeapMemory.FileMode.OPEN_EXISTING);
            final CompletionRing ring = CompletionRing.attach(cq.buffer());
            if (ring == null) {
                throw new IllegalStateException("the peer's completion queue file " + cqFile + " is malformed");
            }
            return new PeerView(directory, deviceId, qp, table, cq, queuePair, regions, ring);
        } catch (final RuntimeException ex) {
            closeQuietly(cq);
            closeQuietly(table);
            closeQuietly(qp);
            throw ex;
        }
    }

    private static long fileSize(final Path file) {
        try {
            final long size = java.nio.file.Files.size(file);
            return size - (size % io.rdmareactive.ring.PageSize.get());
        } catch (final java.io.IOException ex) {
            throw new IllegalStateException("cannot read the peer's file " + file + ": " + ex, ex);
        }
    }

    private static void closeQuietly(final OffHeapMemory memory) {
        if (memory != null) {
            memory.close();
        }
    }

    String deviceId() {
        return deviceId;
    }

    /**
     * @param key the peer's key, already checked against its table
     * @return the peer region's memory, mapped on first use; null if it cannot be mapped
     */
    MemorySegment segment(final int key) {
        final int index = RegionTable.indexOf(key);
        final int generation = RegionTable.generationOf(key);
        final OffHeapMemory mapped = mappings[index];
        if (mapped != null && mappedGenerations[index] == generation) {
            return mapped.segment();
        }
        return map(index, generation);
    }

    private MemorySegment map(final int index, final int generation) {
        final String path = regions.path(index);
        final long length = regions.length(index);
        if (path == null || !directory.holds(Path.of(path))) {
            return null; // the peer's table names no file, or one outside the directory: never map it
        }
        try {
            final OffHeapMemory mapping = OffHeapMemory.mapFile(Path.of(path), length,
                OffHeapMemory.FileMode.OPEN_EXISTING);
            final OffHeapMemory previous = mappings[index];
            mappings[index] = mapping;
            mappedGenerations[index] = generation;
            if (previous != null) {
                previous.close();
            }
            return mapping.segment();
        } catch (final RuntimeException ex) {
            return null; // deregistered and unlinked meanwhile: the caller reports a remote access error
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < mappings.length; i++) {
            if (mappings[i] != null) {
                mappings[i].close();
                mappings[i] = null;
            }
        }
        cqMemory.close();
        tableMemory.close();
        qpMemory.close();
    }
}
