package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.LocalRegion;
import io.rdmareactive.RegionAccess;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.agrona.MutableDirectBuffer;

/**
 * One block of a server's memory that every client reaches through a region of its own connection: a region's key
 * works on its connection alone, so each connection gets {@code registerRegion(memory, rights)} over the same memory.
 *
 * <p>A region needs a connection to be allocated on, so the memory is allocated on the first connection that asks
 * (as a region with no rights for the peer: this side's alone), and filled there; it outlives that connection. Each
 * connection's region is closed when the connection ends; the memory is freed by {@link #close()}.
 */
final class ServedMemory implements AutoCloseable {

    private final long length;
    private final Consumer<MutableDirectBuffer> filler;
    private final RegionAccess[] rights;
    private final Map<Connection, LocalRegion> regions = new HashMap<>();
    private volatile LocalRegion memory;

    /**
     * @param length bytes
     * @param filler writes the memory's contents once it is allocated
     * @param rights what each client may do to it
     */
    ServedMemory(final long length, final Consumer<MutableDirectBuffer> filler, final RegionAccess... rights) {
        this.length = length;
        this.filler = filler;
        this.rights = rights.clone();
    }

    /**
     * The connection's region over the memory, registered at its first call (and the memory allocated and filled at
     * the very first). Registering is a system call, and filling a large block takes a while: call it off the event
     * loop.
     */
    synchronized LocalRegion regionFor(final Connection connection) {
        final LocalRegion known = regions.get(connection);
        if (known != null) {
            return known;
        }
        if (memory == null) {
            final LocalRegion allocated = connection.registerRegion(length);
            filler.accept(allocated.buffer());
            memory = allocated;
        }
        final LocalRegion region = connection.registerRegion(memory, rights);
        regions.put(connection, region);
        connection.onDispose().onErrorComplete().subscribe(null, null, () -> release(connection));
        return region;
    }

    /** @return the memory, for this process's own reads and writes; null until a connection asked for it */
    MutableDirectBuffer bufferOrNull() {
        final LocalRegion allocated = memory;
        return allocated == null ? null : allocated.buffer();
    }

    private synchronized void release(final Connection connection) {
        final LocalRegion region = regions.remove(connection);
        if (region != null) {
            region.close();
        }
    }

    /** Closes every connection's region and frees the memory. */
    @Override
    public synchronized void close() {
        regions.values().forEach(LocalRegion::close);
        regions.clear();
        if (memory != null) {
            memory.close();
        }
    }
}
