package io.rdmareactive.perf.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every figure of a run, as written to {@code results.json}. Times in microseconds unless a name says otherwise. */
final class Results {

    /** One ping-pong measurement: round-trip times of one transport at one size, closed loop or fixed rate. */
    record Latency(String transport, int size, String mode, double ratePerSecond, long roundTrips,
                   Map<String, Double> percentilesMicros, List<double[]> curve, Map<String, Double> uncorrectedMicros,
                   double cpuMicrosPerRoundTrip, double allocatedBytesPerRoundTrip, long wrongEchoes) {
    }

    /** One throughput measurement: one transport, one size, one or several streams. */
    record Throughput(String transport, int size, int streams, double messagesPerSecond, double bytesPerSecond,
                      double cpuNanosPerMessage, double allocatedBytesPerMessage, long garbageCollections,
                      long sent, long received, long lost, long outOfOrder) {
    }

    /** A producer against a consumer throttled to a set rate. */
    record Backpressure(String transport, int size, double consumerRatePerSecond, double producerRatePerSecond,
                        double consumedRatePerSecond, long sent, long received, long lost, long outOfOrder,
                        long peakHeapBytes, long peakRssBytes, List<MemorySample> memory) {
    }

    /** Memory at one moment of a backpressure run. */
    record MemorySample(double seconds, long heapUsedBytes, long rssBytes) {
    }

    /**
     * Request-response through {@code Connection.requestResponse}: one transport, one size, one call in flight
     * (closed loop) or {@code inFlight} of them. Round trips from a call's first attempt to its answer; the counts
     * cover the whole point (warm-up included).
     *
     * @param checked      answers checked over the whole point (right and wrong ones)
     * @param refused      attempts refused with {@code RdmaStreamsBusyException} (every request stream busy), each
     *                     tried again once an earlier call ended
     * @param wrongAnswers answers of the wrong length or bytes (sequence number), or empty
     * @param failedCalls  calls that ended in an error other than a refusal (e.g. a timeout)
     * @param firstFailure the first such error, or null
     */
    record RequestResponse(String transport, int size, String mode, int inFlight, long calls, double callsPerSecond,
                           Map<String, Double> percentilesMicros, List<double[]> curve, double cpuMicrosPerCall,
                           double allocatedBytesPerCall, long checked, long refused, long wrongAnswers,
                           long failedCalls, String firstFailure) {
    }

    /**
     * What the process holds at one moment: live platform threads ({@code ThreadMXBean.getThreadCount()}), those
     * of them whose name starts with {@code rdma-} (the library's), by kind (the name up to its second dash), and
     * the resident set ({@code VmRSS}).
     */
    record Footprint(int threads, int libraryThreads, Map<String, Integer> libraryThreadsByKind, long rssBytes) {
    }

    /**
     * K connections from this JVM to one server, then round-robin request-response over them, one call in flight.
     *
     * @param opened      how many opened before the deadline (all of them unless {@code failure} says otherwise)
     * @param before      before opening
     * @param open        with every connection open, after the measured window
     * @param afterClose  once every connection and the server were closed (or the close bound passed)
     * @param notClosed   connections whose {@code onDispose()} had not completed within the bound
     * @param checked     answers checked over the whole point (warm-up included)
     * @param closeProblem what went wrong while closing (the measurement stands), or null
     * @param failure     why the point was not measured (e.g. the opening deadline passed), or null
     */
    record Connections(String transport, int connections, int size, int opened, double openSeconds, long calls,
                       double callsPerSecond, Map<String, Double> percentilesMicros, Footprint before, Footprint open,
                       Footprint afterClose, double closeSeconds, int notClosed, String closeProblem, long checked,
                       long refused, long wrongAnswers, long failedCalls, String failure) {
    }

    /**
     * The copy baseline: one thread copying {@code size} bytes from one native buffer to the next of a ring of
     * {@code destinations} native buffers ({@code ringBytes} in all), as fast as it can.
     */
    record Memcpy(int size, int destinations, long ringBytes, long copies, double messagesPerSecond,
                  double bytesPerSecond, double gibPerSecond) {
    }

    /**
     * One phase of the rma workload: one-sided reads, writes or fetch-and-adds through {@code RemoteRegion}, or the
     * request-response calls beside them, against a server in a JVM of its own, on one transport at one size, one in
     * flight or {@code inFlight} of them. Latency percentiles (from the subscription to the completion or answer)
     * for one in flight only, else empty; CPU per operation from each process's own {@link ProcessMeter} over the
     * measured window.
     *
     * @param operation                  read, write, fetch-and-add or request-response
     * @param megabytesPerSecond         operations per second times their size, in 10^6 bytes (a call's request;
     *                                   its answer moves as many again)
     * @param serverCpuNanosPerOperation the server process's CPU time over the window, per operation
     * @param serverAllocatedBytesPerOperation the server process's heap allocation over the window, per operation
     * @param clientCpuNanosPerOperation this process's CPU time over the window, per operation
     * @param checked                    operations (or answers) whose data was checked over the whole phase, warm-up
     *                                   included; a phase whose check failed has no result, only a failure
     */
    record Rma(String transport, String operation, int size, int inFlight, long operations,
               double operationsPerSecond, double megabytesPerSecond, Map<String, Double> percentilesMicros,
               double serverCpuNanosPerOperation, double serverAllocatedBytesPerOperation,
               double clientCpuNanosPerOperation, long checked) {
    }

    /**
     * Incast: {@code senders} streams into one receiver as fast as each is let, with probes beside them.
     *
     * @param perSenderPerSecond each sender's messages per second in the measured window
     * @param shares             each sender's part of the aggregate (they add up to 1)
     * @param jainIndex          Jain's fairness index over the senders' rates: 1 fair, 1/n one sender took all
     * @param probes             probes recorded (those due in the measured window)
     * @param probePercentilesMicros the probes' latency from when each was due to its arrival
     * @param lost               bulk messages that never arrived (checked after the window)
     * @param outOfOrder         bulk messages out of order or of the wrong length
     * @param probesWrong        probes of the wrong length, sequence number or contents
     */
    record Incast(String transport, int senders, int size, double probeRatePerSecond, double messagesPerSecond,
                  double bytesPerSecond, List<Double> perSenderPerSecond, List<Double> shares, double jainIndex,
                  long probes, Map<String, Double> probePercentilesMicros, long sent, long received, long lost,
                  long outOfOrder, long probesSent, long probesReceived, long probesWrong) {
    }

    /**
     * All-to-all: every one of {@code parties} sends to every other, each party one thread taking its destinations in
     * turn, each party's receiving side one server of the transport.
     *
     * @param pairs   every ordered pair's messages per second in the measured window, {@code [from, to, rate]}
     * @param lost    messages that never arrived (checked after the window)
     * @param outOfOrder messages out of order or of the wrong length
     */
    record AllToAll(String transport, int parties, int size, double messagesPerSecond, double bytesPerSecond,
                    double pairMinPerSecond, double pairMaxPerSecond, List<double[]> pairs, long sent,
                    long received, long lost, long outOfOrder) {
    }

    /**
     * Peer-kill: {@code peers} processes exchange sequence-numbered messages, every one with every other; one is
     * killed with SIGKILL, and each survivor reports when its API told it.
     *
     * @param survivors one row per surviving peer
     * @param problem   why the run's figures are not to be trusted (a check failed, a survivor never noticed), or
     *                  null
     */
    record PeerKill(String transport, int peers, int size, int killed, List<Survivor> survivors, String problem) {
    }

    /**
     * One surviving peer of a peer-kill run.
     *
     * @param detectedMillis  from the kill to the first report of the failure by this peer's API, or NaN if none
     *                        came within the wait
     * @param how             what reported it first (e.g. "inbound error: ...", "outbound closed")
     * @param beforePerSecond messages per second this peer received from the other survivors before the kill
     * @param afterPerSecond  the same, after its API had reported the failure
     * @param checked         messages it received and checked, from every peer, the killed one included
     * @param lost            gaps in the sequence numbers of any stream it received, plus messages the other
     *                        survivors sent it that never arrived
     * @param duplicated      messages received again or out of order
     */
    record Survivor(int peer, double detectedMillis, String how, double beforePerSecond, double afterPerSecond,
                    long checked, long lost, long duplicated) {
    }

    /**
     * One size of the ring all-reduce on one transport, with nccl-tests' figures, from rank 0 (the greatest of the
     * ranks' average times, the wrong elements summed over every rank).
     *
     * @param bytes      the vector's size
     * @param iterations the timed all-reduces, after the warm-up ones
     * @param micros     the time of one all-reduce
     * @param algbwGBs   the size over the time, in GB/s (10^9 bytes a second)
     * @param busbwGBs   algbw x 2(n-1)/n, comparable with a link's bandwidth whatever the ranks
     * @param wrong      elements that differed from the expected sum, over every rank: anything but 0 makes the
     *                   row a failure
     */
    record AllReduce(String transport, int ranks, long bytes, int iterations, double micros, double algbwGBs,
                     double busbwGBs, long wrong) {
    }

    /** A measurement that could not be made, and why. */
    record Failure(String transport, String workload, String reason) {
    }

    /** One figure of one transport against the same figure of a baseline measured in the same run. */
    record Ratio(String metric, int size, String transport, String baseline, double value, double baselineValue,
                 double ratio, String unit, boolean lowerIsBetter) {
    }

    final Map<String, Object> environment = new LinkedHashMap<>();
    final Map<String, Object> settings = new LinkedHashMap<>();
    final Map<String, String> transports = new LinkedHashMap<>();
    final List<Latency> latency = new ArrayList<>();
    final List<Throughput> throughput = new ArrayList<>();
    final List<Backpressure> backpressure = new ArrayList<>();
    final List<RequestResponse> requestResponse = new ArrayList<>();
    final List<Connections> connections = new ArrayList<>();
    final List<Memcpy> memcpy = new ArrayList<>();
    final List<Rma> rma = new ArrayList<>();
    final List<Incast> incast = new ArrayList<>();
    final List<AllToAll> allToAll = new ArrayList<>();
    final List<PeerKill> peerKill = new ArrayList<>();
    final List<AllReduce> allReduce = new ArrayList<>();
    final List<Failure> failures = new ArrayList<>();
    final List<Ratio> ratios = new ArrayList<>();

    /** @return the view Jackson writes */
    Map<String, Object> asMap() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("note", "absolute figures are this machine's, measured in one run; ratios compare transports of "
            + "the same run");
        map.put("environment", environment);
        map.put("settings", settings);
        map.put("transports", transports);
        map.put("latency", latency);
        map.put("throughput", throughput);
        map.put("backpressure", backpressure);
        map.put("requestResponse", requestResponse);
        map.put("connections", connections);
        map.put("memcpy", memcpy);
        map.put("rma", rma);
        map.put("incast", incast);
        map.put("allToAll", allToAll);
        map.put("peerKill", peerKill);
        map.put("allReduce", allReduce);
        map.put("ratios", ratios);
        map.put("failures", failures);
        return map;
    }
}
