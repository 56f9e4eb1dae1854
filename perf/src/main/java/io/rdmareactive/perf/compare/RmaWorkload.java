package io.rdmareactive.perf.compare;

import io.rdmareactive.Connection;
import io.rdmareactive.LocalRegion;
import io.rdmareactive.RegionDescriptor;
import io.rdmareactive.RemoteRegion;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remote memory access through rdma-reactive's public API against a server in a JVM of its own
 * ({@link ServerProcess}): the client asks the server for a region ({@link RegionLayout}) and reaches it through
 * {@code Connection.remoteRegion}. At each size, on the same transport: request-response calls to an echo server of
 * the same process, one in flight (the two-sided baseline); one-sided reads, one in flight and pipelined; one-sided
 * writes, the same; then fetch-and-add (8 B), the same. Every read, write, atomic and answer is checked
 * ({@link ReadOperations}, {@link WriteOperations}, {@link FetchAddOperations}, {@link Answers}).
 */
final class RmaWorkload {

    /** The most bytes of read targets the pipelined reads of one size use: bounds their depth at large sizes. */
    static final int TARGET_BYTES = 64 << 20;
    private static final Duration TIMEOUT = RequestResponseWorkload.CALL_TIMEOUT;
    private static final Duration SETUP = RequestResponseWorkload.SETUP_TIMEOUT;

    private RmaWorkload() {
    }

    /** @return how many phases a transport runs, for the progress bar */
    static int phases(final Settings settings) {
        return 5 * settings.rmaSizes().size() + 2;
    }

    /** @return the in-flight depth of the pipelined operations of {@code size} bytes */
    static int depth(final int size, final int inFlight, final int maxOneSidedInFlight) {
        return Math.max(1, Math.min(Math.min(inFlight, maxOneSidedInFlight), TARGET_BYTES / size));
    }

    /** Runs every phase on {@code transport}, adding results to {@code rows} and what failed to {@code failures}. */
    static void run(final ReactiveTransport transport, final Settings settings, final Progress progress,
                    final List<Results.Rma> rows, final List<Results.Failure> failures) throws Exception {
        final List<Integer> sizes = settings.rmaSizes();
        final RegionLayout layout = RegionLayout.forLargest(Collections.max(sizes));
        final String regionAddress = transport.nextAddress();
        final Map<Integer, String> echoes = new LinkedHashMap<>();
        final Map<String, Integer> servers = new LinkedHashMap<>();
        for (final int size : sizes) {
            echoes.put(size, transport.nextAddress());
            servers.put(echoes.get(size), size);
        }
        try (ServerProcess server = ServerProcess.start(transport, regionAddress, layout, servers)) {
            final Connection connection = transport.client(regionAddress, 4096).requestTimeout(TIMEOUT).connect()
                .block(SETUP);
            final List<LocalRegion> regions = new ArrayList<>();
            try {
                final RegionDescriptor descriptor = connection.requestResponse("region", Codecs.UTF8_STRING,
                    RegionDescriptor.CODEC).block(SETUP);
                final RemoteRegion remote = connection.remoteRegion(descriptor);
                long targetBytes = layout.span();
                for (final int size : sizes) {
                    targetBytes = Math.max(targetBytes, (long) size
                        * depth(size, settings.rmaInFlight(), connection.maxOneSidedInFlight()));
                }
                final LocalRegion target = connection.registerRegion(targetBytes);
                regions.add(target);
                final LocalRegion source = connection.registerRegion(layout.span());
                regions.add(source);
                WriteOperations.fillSource(source, layout);
                final BitSet written = new BitSet();
                final RmaPhases phases = new RmaPhases(transport.name(), server, settings, progress, rows, failures);
                for (final int size : sizes) {
                    final int depth = depth(size, settings.rmaInFlight(), connection.maxOneSidedInFlight());
                    phases.requestResponse(transport, echoes.get(size), size);
                    final ReadOperations reads = new ReadOperations(remote, target, layout, size, TIMEOUT);
                    phases.oneInFlight(reads);
                    phases.pipelined(remote, reads, depth);
                    final WriteOperations writes = new WriteOperations(remote, source, target, layout, written, size,
                        TIMEOUT);
                    phases.oneInFlight(writes);
                    phases.pipelined(remote, writes, depth);
                }
                final FetchAddOperations atomics = new FetchAddOperations(remote, target, layout, TIMEOUT);
                phases.oneInFlight(atomics);
                phases.pipelined(remote, atomics,
                    Math.min(settings.rmaInFlight(), connection.maxOneSidedInFlight()));
            } finally {
                regions.forEach(LocalRegion::close);
                connection.dispose();
                connection.onDispose().onErrorComplete().block(SETUP);
            }
        }
    }
}
