package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.Inbound;
import io.rdmareactive.Outbound;
import io.rdmareactive.RegionAccess;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.StreamKind;
import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import org.agrona.DirectBuffer;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The server of {@link RemoteLookup}: it holds the table in memory that each client reads through a READ-only region
 * of its own connection, and answers three kinds of {@code requestResponse} call, all with a {@code long} request:
 * <ul>
 *   <li>{@value #TABLE}: the descriptor of the connection's region over the table
 *       ({@link RegionDescriptor#CODEC});</li>
 *   <li>{@value #CPU}: the CPU time this process has used so far, in nanoseconds ({@link Codecs#LONG});</li>
 *   <li>a key (from 1): the key's six value words ({@link Codecs#LONG_ARRAY}), found by the same linear probe in
 *       the same memory the clients read, or an empty answer if the key is absent.</li>
 * </ul>
 * A lookup is answered on the connection's event loop, where it arrives; registering a connection's region (and, at
 * the first, filling the table) runs on Reactor's bounded-elastic scheduler, off the loop.
 */
final class LookupServer {

    /** The request for the region's descriptor. */
    static final long TABLE = -1;
    /** The request for this process's CPU time. */
    static final long CPU = -2;

    private final LookupTable table;
    private final ServedMemory memory;
    /** Where regions are registered; made here, not on the event loop at the first call. */
    private final Scheduler registering = Schedulers.boundedElastic();

    LookupServer(final LookupTable table) {
        this.table = table;
        this.memory = new ServedMemory(table.bytes(), table::writeTo, RegionAccess.REMOTE_READ);
    }

    /** The server's stream handler. */
    Publisher<Void> handle(final StreamKind kind, final Inbound in, final Outbound out) {
        if (kind != StreamKind.REQUEST_RESPONSE) {
            return Mono.error(new IllegalArgumentException("the lookup server answers requestResponse calls only"));
        }
        return in.receive(Codecs.LONG).next().flatMap(request -> answer(request, in.connection(), out));
    }

    private Mono<Void> answer(final long request, final Connection connection, final Outbound out) {
        if (request == TABLE) {
            return Mono.fromCallable(() -> memory.regionFor(connection).descriptor())
                .subscribeOn(registering)
                .flatMap(descriptor -> out.send(Mono.just(descriptor), RegionDescriptor.CODEC));
        }
        if (request == CPU) {
            return out.send(Mono.just(cpuNanos()), Codecs.LONG);
        }
        final DirectBuffer buffer = memory.bufferOrNull();
        if (buffer == null || request <= 0) {
            return Mono.error(new IllegalArgumentException(buffer == null ? "no table yet: ask for it (" + TABLE
                + ") first" : "not a key, nor a request this server knows: " + request));
        }
        final int home = LookupTable.home(request, table.capacity());
        final int found = LookupTable.scan(buffer, LookupTable.slotOffset(home), table.probeBound(), request);
        if (found < 0) {
            return Mono.empty(); // absent: an empty answer
        }
        final int at = LookupTable.slotOffset(home + found) + LookupTable.WORDS_AT;
        final long[] words = new long[LookupTable.WORDS];
        for (int word = 0; word < words.length; word++) {
            words[word] = buffer.getLong(at + word * Long.BYTES);
        }
        return out.send(Mono.just(words), Codecs.LONG_ARRAY);
    }

    /**
     * @return the CPU time of the whole process (every thread: event loops, collector, compiler), user and system, as
     *     the kernel accounts it; on Linux in clock ticks of 10 ms
     */
    static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** Frees the table and every connection's region over it. */
    void close() {
        memory.close();
    }
}
