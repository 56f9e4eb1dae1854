package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.AeronTransport;
import io.rdmareactive.perf.compare.transport.NettyTcpTransport;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.Transport;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.util.ArrayList;
import java.util.List;

/**
 * Peer-kill: N peers, each a JVM of its own ({@link PeerProcess}), every one connected to every other and sending it
 * sequence-numbered messages as fast as it is let. After the warm-up and one measured window, the last peer is
 * killed with SIGKILL; the run waits until every survivor's API has reported the failure (or the wait passes),
 * measures another window, stops the senders and checks that every message one survivor sent another arrived, and
 * that no stream, the killed peer's included, skipped or repeated a sequence number. Per survivor: the time from the
 * kill to its first report (both read {@code System.nanoTime()}, the machine's monotonic clock), and the messages
 * per second it received from the other survivors before and after.
 */
final class PeerKillWorkload {

    private PeerKillWorkload() {
    }

    /** @return whether the workload runs over {@code transport}: rdma-reactive's public API, Aeron or TCP */
    static boolean fits(final Transport transport) {
        return transport instanceof ReactiveTransport || transport instanceof NettyTcpTransport
            || transport instanceof AeronTransport;
    }

    static Results.PeerKill run(final Transport transport, final Settings settings, final Progress.Point progress)
        throws Exception {
        final Traffic traffic = settings.traffic();
        final int peers = traffic.peerKillPeers();
        final int victim = peers - 1;
        final List<PeerProcess> processes = new ArrayList<>();
        final String[] addresses = addresses(transport, peers);
        try {
            for (int peer = 0; peer < peers; peer++) {
                processes.add(new PeerProcess(jvmOptions(transport, addresses[peer]),
                    arguments(transport, peer, peers, traffic.peerKillSize(), settings, addresses[peer])));
            }
            final StringBuilder connect = new StringBuilder("connect");
            for (final PeerProcess process : processes) {
                connect.append(' ').append(process.ask(null, "ready").substring("ready ".length()));
            }
            for (final PeerProcess process : processes) {
                process.ask(connect.toString(), "connected");
            }
            processes.forEach(process -> process.send("go"));
            final long window = settings.duration().toMillis();
            Waiting.sleep(settings.warmUp().toMillis(), 0, progress, () -> { });
            final long[][] before0 = counts(processes, victim);
            Waiting.sleep(window, settings.warmUp().toMillis(), progress, () -> { });
            final long[][] before1 = counts(processes, victim);
            final long killed = System.nanoTime();
            processes.get(victim).kill();
            Waiting.until(() -> processes.subList(0, victim).stream().allMatch(p -> p.failure(victim) != null),
                traffic.peerKillWait().toMillis());
            final long[][] after0 = counts(processes, victim);
            Waiting.sleep(window, settings.warmUp().toMillis() + window, progress, () -> { });
            final long[][] after1 = counts(processes, victim);
            final long[][] sent = new long[victim][];
            for (int peer = 0; peer < victim; peer++) {
                sent[peer] = PeerProcess.numbers(processes.get(peer).ask("stop", "sent"));
            }
            return result(transport.name(), peers, traffic, processes, killed, sent,
                new long[][][] {before0, before1, after0, after1});
        } finally {
            processes.forEach(PeerProcess::close);
        }
    }

    private static Results.PeerKill result(final String transport, final int peers, final Traffic traffic,
                                           final List<PeerProcess> processes, final long killed,
                                           final long[][] sent, final long[][][] windows) throws Exception {
        final int victim = peers - 1;
        final List<Results.Survivor> survivors = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        for (int peer = 0; peer < victim; peer++) {
            final PeerProcess process = processes.get(peer);
            final int me = peer;
            // every message another survivor sent this one must arrive: wait for them, then check the streams
            final long[] expected = new long[peers];
            for (int from = 0; from < victim; from++) {
                expected[from] = from == me ? 0 : sent[from][me];
            }
            long[] received = PeerProcess.numbers(process.ask("count", "count"));
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (shortfall(expected, received) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
                received = PeerProcess.numbers(process.ask("count", "count"));
            }
            final long[] check = PeerProcess.numbers(process.ask("check", "check"));
            final long lost = shortfall(expected, received) + check[0];
            final PeerProcess.Report report = process.failure(victim);
            if (report == null) {
                problems.add("peer " + peer + " never reported the failure within " + traffic.peerKillWait());
            }
            if (lost > 0 || check[1] > 0 || check[2] > 0) {
                problems.add("peer " + peer + ": " + lost + " lost, " + check[1] + " duplicated or out of order, "
                    + check[2] + " of the wrong length");
            }
            long checked = 0;
            for (int from = 0; from < peers; from++) {
                checked += received[1 + from];
            }
            survivors.add(new Results.Survivor(peer,
                report == null ? Double.NaN : (report.nanoTime() - killed) / 1e6, report == null ? "-" : report.how(),
                rate(windows[0][peer], windows[1][peer], victim, me), rate(windows[2][peer], windows[3][peer], victim,
                me), checked, lost, check[1]));
        }
        return new Results.PeerKill(transport, peers, traffic.peerKillSize(), victim, survivors,
            problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** @return messages expected but not (yet) received; {@code received} is a count answer (its time first) */
    private static long shortfall(final long[] expected, final long[] received) {
        long missing = 0;
        for (int from = 0; from < expected.length; from++) {
            missing += Math.max(0, expected[from] - received[1 + from]);
        }
        return missing;
    }

    /** @return messages per second received from the other survivors between two count answers */
    private static double rate(final long[] start, final long[] end, final int victim, final int me) {
        long messages = 0;
        for (int from = 0; from < victim; from++) {
            if (from != me) {
                messages += end[1 + from] - start[1 + from];
            }
        }
        return messages / ((end[0] - start[0]) / 1e9);
    }

    /** @return each survivor's count answer (its time, then its counts per source), the victim's row null */
    private static long[][] counts(final List<PeerProcess> processes, final int victim) throws Exception {
        final long[][] counts = new long[processes.size()][];
        for (int peer = 0; peer < victim; peer++) {
            counts[peer] = PeerProcess.numbers(processes.get(peer).ask("count", "count"));
        }
        return counts;
    }

    /**
     * @return by peer, the address its server listens at over rdma-reactive's API (null for the others): over verbs
     *     with node B's address, the peers alternate between the nodes as the all-reduce's ranks do
     *     ({@link AllReduceWorkload#ring}); else each a fresh address of the transport's
     */
    private static String[] addresses(final Transport transport, final int peers) {
        final String[] addresses = new String[peers];
        if (transport instanceof ReactiveTransport api) {
            if (api.verbsNodes() != null) {
                return AllReduceWorkload.ring(api.verbsNodes(), peers);
            }
            for (int peer = 0; peer < peers; peer++) {
                addresses[peer] = api.nextAddress();
            }
        }
        return addresses;
    }

    /**
     * @return the peer JVM's options beyond this JVM's: over verbs with two devices, its node's device as the default
     *     one ({@code -Drdma.verbs.device}), the device owning the address it listens at. (Its transport has a runtime
     *     on each device, as this JVM's has, and connects to each peer from the device the route to it leaves
     *     through: from a node-A peer to another node-A peer that is node B's.)
     */
    static List<String> jvmOptions(final Transport transport, final String address) {
        if (transport instanceof ReactiveTransport api && api.verbsNodes() != null
            && api.verbsNodes().twoDevices()) {
            return List.of("-Drdma.verbs.device=" + api.verbsNodes().listeningDevice(address));
        }
        return List.of();
    }

    static List<String> arguments(final Transport transport, final int peer, final int peers, final int size,
                                  final Settings settings, final String address) {
        final String kind = transport instanceof ReactiveTransport ? "flux"
            : transport instanceof AeronTransport aeron ? (aeron.udp() ? "aeron-udp" : "aeron-ipc") : "tcp";
        final List<String> arguments = new ArrayList<>(List.of(kind, String.valueOf(peer), String.valueOf(peers),
            String.valueOf(size), settings.idle().spec()));
        if (transport instanceof ReactiveTransport api) {
            final VerbsNodes verbs = api.verbsNodes();
            arguments.addAll(List.of(api.provider(), api.directory() == null ? "-" : api.directory().toString(),
                verbs == null ? "-" : verbs.address(), address,
                verbs == null || verbs.serverDevice() == null ? "-" : verbs.serverDevice(),
                verbs == null || verbs.clientDevice() == null ? "-" : verbs.clientDevice(),
                verbs == null || verbs.clientHost() == null ? "-" : verbs.clientHost()));
        } else if (transport instanceof AeronTransport aeron) {
            // IPC: the comparison's driver; UDP: each peer's own driver, in a folder beside it
            arguments.add((aeron.udp() ? aeron.directory().getParent() : aeron.directory()).toString());
        }
        return arguments;
    }
}
