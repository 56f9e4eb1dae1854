package io.rdmareactive.perf.compare;

import io.rdmareactive.perf.compare.transport.Idle;
import io.rdmareactive.perf.compare.transport.VerbsNodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one comparison run measures, parsed from the command line by {@link CompareCommand}.
 *
 * @param transports       transport names, in the order they run
 * @param workloads        ping-pong, throughput, backpressure, request-response, connections, memcpy, rma, incast,
 *                         all-to-all, peer-kill, all-reduce
 * @param pingSizes        ping-pong message sizes
 * @param throughputSizes  throughput message sizes
 * @param streams          stream counts for throughput (1 and several)
 * @param multiStreamSizes the sizes also measured with more than one stream
 * @param warmUp           per measurement point, discarded
 * @param duration         per measurement point, measured
 * @param idle             every polling thread's idle strategy
 * @param fixedRate        round trips per second of the fixed-rate ping-pong, 0 for none
 * @param consumerRate     the throttled consumer's messages per second (backpressure)
 * @param backpressureSize the backpressure workload's message size
 * @param output           the folder for results.json and report.html
 * @param verbs            where the verbs transports listen and which devices they use, or null without an address
 * @param pinning          what CPU pinning the run had, as stated in the report
 * @param rrSizes          request-response message sizes
 * @param rrInFlight       calls in flight of the request-response workload's second mode
 * @param connectionCounts how many connections the connections workload opens, one point per count
 * @param connectionsOpen  the deadline for opening one point's connections (and the bound for closing them)
 * @param memcpySizes      the copy baseline's sizes (measured with throughput, or as the memcpy workload)
 * @param rmaSizes         the rma workload's sizes of one-sided reads and writes and of its request-response calls
 * @param rmaInFlight      one-sided operations in flight of the rma workload's pipelined mode (at most)
 * @param traffic          the incast, all-to-all, peer-kill and all-reduce workloads' settings
 */
record Settings(List<String> transports, Set<String> workloads, List<Integer> pingSizes,
                List<Integer> throughputSizes, List<Integer> streams, List<Integer> multiStreamSizes,
                Duration warmUp, Duration duration, Idle idle, double fixedRate, double consumerRate,
                int backpressureSize, Path output, VerbsNodes verbs, String pinning, List<Integer> rrSizes,
                int rrInFlight, List<Integer> connectionCounts, Duration connectionsOpen, List<Integer> memcpySizes,
                List<Integer> rmaSizes, int rmaInFlight, Traffic traffic) {

    static final String PING_PONG = "ping-pong";
    static final String THROUGHPUT = "throughput";
    static final String BACKPRESSURE = "backpressure";
    static final String REQUEST_RESPONSE = "request-response";
    static final String CONNECTIONS = "connections";
    static final String MEMCPY = "memcpy";
    static final String RMA = "rma";
    static final String INCAST = "incast";
    static final String ALL_TO_ALL = "all-to-all";
    static final String PEER_KILL = "peer-kill";
    static final String ALL_REDUCE = "all-reduce";
    static final List<String> WORKLOADS = List.of(PING_PONG, THROUGHPUT, BACKPRESSURE, REQUEST_RESPONSE, CONNECTIONS,
        MEMCPY, RMA, INCAST, ALL_TO_ALL, PEER_KILL, ALL_REDUCE);

    Map<String, Object> asMap() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("transports", transports);
        map.put("workloads", workloads);
        map.put("pingPongSizes", pingSizes);
        map.put("throughputSizes", throughputSizes);
        map.put("streams", streams);
        map.put("multiStreamSizes", multiStreamSizes);
        map.put("warmUpSeconds", warmUp.toMillis() / 1000.0);
        map.put("durationSeconds", duration.toMillis() / 1000.0);
        map.put("idleStrategy", idle.spec());
        map.put("fixedRatePerSecond", fixedRate);
        map.put("consumerRatePerSecond", consumerRate);
        map.put("backpressureSize", backpressureSize);
        map.put("requestResponseSizes", rrSizes);
        map.put("requestResponseInFlight", rrInFlight);
        map.put("connectionCounts", connectionCounts);
        map.put("connectionsOpenTimeoutSeconds", connectionsOpen.toMillis() / 1000.0);
        map.put("memcpySizes", memcpySizes);
        map.put("rmaSizes", rmaSizes);
        map.put("rmaInFlight", rmaInFlight);
        map.putAll(traffic.asMap());
        map.put("peers", "both peers of every transport in this one JVM, on separate threads; the rma workload's "
            + "server and the peer-kill workload's peers in JVMs of their own; the all-reduce's ranks are threads of "
            + "this JVM");
        map.put("cpuPinning", pinning);
        if (verbs != null) {
            map.put("verbsAddress", verbs.address());
            if (verbs.twoDevices()) {
                map.put("verbsServerDevice", verbs.serverDevice());
                map.put("verbsClientDevice", verbs.clientDevice());
                if (verbs.clientHost() != null) {
                    map.put("verbsClientAddress", verbs.clientHost());
                }
            }
        }
        return map;
    }
}
