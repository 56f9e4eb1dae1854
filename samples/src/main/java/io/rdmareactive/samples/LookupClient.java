package io.rdmareactive.samples;

import io.rdmareactive.Connection;
import io.rdmareactive.LocalRegion;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.RemoteRegion;
import io.rdmareactive.codec.Codecs;
import java.time.Duration;
import java.util.Optional;
import org.agrona.DirectBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The client of {@link RemoteLookup}: it looks keys up in the server's table either with one-sided READs of the table
 * or with {@code requestResponse} calls to the server, and checks every outcome.
 *
 * <p>A phase runs {@code workers} lookups at a time: each worker does its share one after the other, the next
 * starting when the previous one completed. A one-sided lookup READs {@code window} slots from the key's home slot into
 * the worker's own part of a local region, scans them on the event loop as the READ completes, and only when the key's
 * probe goes on past them READs the rest of the table's probe bound (so never more than two READs). Lookup number
 * {@code n} of a run always asks for the same key, and a given share of the keys asked for is absent.
 */
final class LookupClient implements AutoCloseable {

    private static final Duration CALL = Duration.ofSeconds(30);

    private final Connection connection;
    private final RemoteRegion remote;
    private final LocalRegion local;
    private final LookupTable table;
    private final int workers;
    private final int window;
    private final int absentPercent;

    private LookupClient(final Connection connection, final RemoteRegion remote, final LocalRegion local,
                         final LookupTable table, final int workers, final int window, final int absentPercent) {
        this.connection = connection;
        this.remote = remote;
        this.local = local;
        this.table = table;
        this.workers = workers;
        this.window = window;
        this.absentPercent = absentPercent;
    }

    /**
     * Asks the server for its region, registers a local region for the READs, and READs the table's header.
     *
     * @param window the slots the first READ of a lookup covers
     */
    static LookupClient open(final Connection connection, final int workers, final int window,
                             final int absentPercent) {
        final RegionDescriptor descriptor = connection.requestResponse(LookupServer.TABLE, Codecs.LONG,
            RegionDescriptor.CODEC).block(CALL);
        final RemoteRegion remote = connection.remoteRegion(descriptor);
        final LocalRegion header = connection.registerRegion(LookupTable.SLOT);
        final LookupTable table;
        try {
            remote.read(0, header, 0, LookupTable.SLOT).block(CALL);
            table = LookupTable.fromHeader(header.buffer(), 0);
        } finally {
            header.close();
        }
        if (descriptor.length() < table.bytes()) {
            throw new IllegalStateException("the table needs " + table.bytes() + " bytes, the region has "
                + descriptor.length());
        }
        final LocalRegion local = connection.registerRegion((long) workers * table.probeBound() * LookupTable.SLOT);
        return new LookupClient(connection, remote, local, table, workers, Math.min(window, table.probeBound()),
            absentPercent);
    }

    LookupTable table() {
        return table;
    }

    /** @return the slots a lookup's first READ covers */
    int window() {
        return window;
    }

    RegionDescriptor descriptor() {
        return remote.descriptor();
    }

    /** Runs lookups {@code first .. first+count-1} with one-sided READs. */
    LookupTally readPhase(final long first, final int count) {
        return phase(first, count, this::readLookup);
    }

    /** Runs lookups {@code first .. first+count-1} as calls to the server. */
    LookupTally callPhase(final long first, final int count) {
        return phase(first, count, this::callLookup);
    }

    /** @return the server process's CPU time so far, as it reports it */
    long serverCpuNanos() {
        return connection.requestResponse(LookupServer.CPU, Codecs.LONG, Codecs.LONG).block(CALL);
    }

    private LookupTally phase(final long first, final int count,
                              final Lookup lookup) {
        final LookupTally[] tallies = new LookupTally[workers];
        Flux.range(0, workers).flatMap(worker -> {
            tallies[worker] = new LookupTally();
            final int share = count / workers + (worker < count % workers ? 1 : 0);
            return Flux.range(0, share)
                .concatMap(n -> lookup.run(tallies[worker], worker, first + worker + (long) n * workers));
        }, workers).then().block(Duration.ofSeconds(60).plusNanos(count * 200_000L));
        final LookupTally total = new LookupTally();
        for (final LookupTally tally : tallies) {
            total.add(tally);
        }
        return total;
    }

    /** @return the table's index of the key that lookup {@code n} asks for: from {@code keys} on, an absent one */
    long keyIndex(final long n) {
        final long random = LookupTable.mix(n * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        final long index = Long.remainderUnsigned(LookupTable.mix(random), table.keys());
        return Long.remainderUnsigned(random, 100) < absentPercent ? table.keys() + index : index;
    }

    private Mono<Void> readLookup(final LookupTally tally, final int worker, final long n) {
        return Mono.defer(() -> {
            final long index = keyIndex(n);
            final long key = LookupTable.key(index);
            final int home = LookupTable.home(key, table.capacity());
            final int base = worker * table.probeBound() * LookupTable.SLOT;
            final long start = System.nanoTime();
            tally.reads++;
            return remote.read(LookupTable.slotOffset(home), local, base, window * LookupTable.SLOT)
                .then(Mono.defer(() -> {
                    final int rest = table.probeBound() - window;
                    if (rest == 0 || LookupTable.scan(local.buffer(), base, window, key) != LookupTable.GO_ON) {
                        return Mono.empty();
                    }
                    tally.reads++;
                    tally.secondReads++;
                    return remote.read(LookupTable.slotOffset(home + window), local,
                        base + window * LookupTable.SLOT, rest * LookupTable.SLOT);
                }))
                .then(Mono.fromRunnable(() -> {
                    tally.record(System.nanoTime() - start);
                    judgeSlots(tally, base, key, index);
                }));
        });
    }

    /** Judges a one-sided lookup from the slots READ into the worker's part of the local region. */
    private void judgeSlots(final LookupTally tally, final int base, final long key, final long index) {
        final DirectBuffer buffer = local.buffer();
        final int found = LookupTable.scan(buffer, base, table.probeBound(), key);
        if (found == LookupTable.GO_ON) {
            tally.wrong("key " + key + ": neither it nor an empty slot within the probe bound of "
                + table.probeBound() + " slots");
        } else if (found == LookupTable.ABSENT) {
            judgeMiss(tally, key, index);
        } else if (index >= table.keys()) {
            tally.wrong("absent key " + key + " (index " + index + ") was found");
        } else {
            judgeHit(tally, LookupTable.check(buffer, base + found * LookupTable.SLOT, key));
        }
    }

    private Mono<Void> callLookup(final LookupTally tally, final int worker, final long n) {
        return Mono.defer(() -> {
            final long index = keyIndex(n);
            final long key = LookupTable.key(index);
            final long start = System.nanoTime();
            return connection.requestResponse(key, Codecs.LONG, Codecs.LONG_ARRAY).singleOptional()
                .doOnNext((Optional<long[]> words) -> {
                    tally.record(System.nanoTime() - start);
                    if (words.isEmpty()) {
                        judgeMiss(tally, key, index);
                    } else if (index >= table.keys()) {
                        tally.wrong("absent key " + key + " (index " + index + ") was found");
                    } else {
                        judgeHit(tally, LookupTable.check(words.get(), key));
                    }
                }).then();
        });
    }

    private void judgeMiss(final LookupTally tally, final long key, final long index) {
        if (index < table.keys()) {
            tally.wrong("key " + key + " (index " + index + ") is in the table, but the lookup missed it");
        } else {
            tally.misses++;
        }
    }

    private static void judgeHit(final LookupTally tally, final String problem) {
        if (problem == null) {
            tally.hits++;
        } else {
            tally.wrong(problem);
        }
    }

    /** One lookup of a worker, recorded in the worker's tally. */
    @FunctionalInterface
    private interface Lookup {
        Mono<Void> run(LookupTally tally, int worker, long n);
    }

    /** Frees the local region. */
    @Override
    public void close() {
        local.close();
    }
}
