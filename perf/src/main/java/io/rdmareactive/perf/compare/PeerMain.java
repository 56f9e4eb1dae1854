package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.ReactiveTransport;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntToLongFunction;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A peer of the peer-kill workload, the main class of a JVM of its own ({@link PeerProcess} starts it). It binds
 * its server and prints {@code ready <address>}; then answers, one line each, the commands on standard input:
 * {@code connect <address of peer 0> ...} (connects to every other peer: {@code connected}), {@code go} (starts
 * sending to every peer in turn: sequence-numbered messages naming this peer), {@code count} ({@code count <nanoTime>
 * <received from peer 0> ...}), {@code stop} (stops sending: {@code sent <to peer 0> ...}), {@code check}
 * ({@code check <gaps> <duplicated> <wrong>}). Failures the API reports are printed as they come ({@link PeerLedger}).
 * It exits when standard input ends.
 *
 * <p>Arguments: {@code flux}, {@code tcp}, {@code aeron-ipc} or {@code aeron-udp}, this peer's number, the number of
 * peers, the message size, the idle strategy; for flux also the provider, the shm directory or {@code -}, the verbs
 * address or {@code -}, this peer's server address, and the verbs server device, client device and node B's address
 * (each {@code -} for none: see {@link VerbsNodes}); for aeron-ipc the comparison's media driver directory, for
 * aeron-udp the folder for this peer's own driver.
 */
public final class PeerMain {

    private PeerMain() {
    }

    public static void main(final String[] args) throws Exception {
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        final int self = Integer.parseInt(args[1]);
        final int peers = Integer.parseInt(args[2]);
        final int size = Integer.parseInt(args[3]);
        final Idle idle = Idle.parse(args[4]);
        final PeerLedger ledger = new PeerLedger(peers, size, out);
        final PeerNode node = switch (args[0]) {
            case "flux" -> new FluxPeerNode(flux(args, idle), args[8], peers, size, ledger);
            case "aeron-ipc", "aeron-udp" -> new AeronPeerNode(args[0].equals("aeron-udp"), Path.of(args[5]), self,
                peers, idle, ledger);
            default -> new TcpPeerNode(peers, size, ledger);
        };
        final AtomicLongArray sent = new AtomicLongArray(peers);
        final AtomicBoolean running = new AtomicBoolean(true);
        Thread sender = null;
        out.println("ready " + node.address());
        final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            final String[] words = line.split(" ");
            switch (words[0]) {
                case "connect" -> {
                    for (int peer = 0; peer < peers; peer++) {
                        if (peer != self) {
                            node.connect(peer, words[1 + peer]);
                        }
                    }
                    out.println("connected");
                }
                case "go" -> sender = Thread.ofPlatform().name("peer-sender").start(() -> send(node, self, size,
                    idle.newStrategy(), sent, running));
                case "count" -> out.println("count " + System.nanoTime() + " " + counts(peers, ledger::received));
                case "stop" -> {
                    running.set(false);
                    if (sender != null) {
                        sender.join();
                    }
                    out.println("sent " + counts(peers, sent::get));
                }
                case "check" -> out.println("check " + ledger.gaps() + " " + ledger.duplicated() + " "
                    + ledger.wrong());
                default -> out.println("unknown " + line);
            }
        }
        node.close();
        System.exit(0);
    }

    /** @return the flux peer's transport: over verbs, on the devices the arguments name, as the comparison's is */
    private static ReactiveTransport flux(final String[] args, final Idle idle) {
        if (args[7].equals("-")) {
            return new ReactiveTransport(args[5], idle, args[6].equals("-") ? null : Path.of(args[6]), null);
        }
        return new ReactiveTransport(args[5], idle, new VerbsNodes(args[7], orNull(args[9]), orNull(args[10]),
            orNull(args[11])));
    }

    private static String orNull(final String argument) {
        return argument.equals("-") ? null : argument;
    }

    private static String counts(final int peers, final IntToLongFunction count) {
        final StringJoiner joiner = new StringJoiner(" ");
        for (int peer = 0; peer < peers; peer++) {
            joiner.add(String.valueOf(count.applyAsLong(peer)));
        }
        return joiner.toString();
    }

    /** Sends to every other peer in turn, passing over one that pushes back, until stopped. */
    private static void send(final PeerNode node, final int self, final int size, final IdleStrategy idle,
                             final AtomicLongArray sent, final AtomicBoolean running) {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        payload.putInt(PeerLedger.SOURCE_OFFSET, self);
        while (running.get()) {
            boolean any = false;
            for (int peer = 0; peer < sent.length(); peer++) {
                if (peer == self) {
                    continue;
                }
                final long sequence = sent.get(peer);
                payload.putLong(0, sequence);
                if (node.offer(peer, payload, size)) {
                    sent.lazySet(peer, sequence + 1);
                    any = true;
                }
            }
            if (any) {
                idle.reset();
            } else {
                idle.idle();
            }
        }
    }
}
