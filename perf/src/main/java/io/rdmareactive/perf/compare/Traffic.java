package io.rdmareactive.perf.compare;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of the workloads with more than two parties: the congestion and failure workloads (incast,
 * all-to-all, peer-kill) and the ring all-reduce.
 *
 * @param incastSenders      sender counts of the incast workload, one point per count
 * @param incastSize         the incast senders' message size
 * @param probeRate          probes per second competing with the incast traffic
 * @param allToAllParties    how many parties send to each other in the all-to-all workload
 * @param allToAllSizes      the all-to-all message sizes, one point per size
 * @param peerKillPeers      how many peer processes exchange messages in the peer-kill workload
 * @param peerKillSize       the peer-kill workload's message size
 * @param peerKillWait       how long the peer-kill workload waits for every survivor to report the failure
 * @param allReduceRanks     the all-reduce ring's ranks, each a thread
 * @param allReduceSizes     the all-reduce's vector sizes in bytes, one point per size
 */
record Traffic(List<Integer> incastSenders, int incastSize, double probeRate, int allToAllParties,
               List<Integer> allToAllSizes, int peerKillPeers, int peerKillSize, Duration peerKillWait,
               int allReduceRanks, List<Integer> allReduceSizes) {

    /** @return the defaults of the command line */
    static Traffic defaults() {
        return new Traffic(List.of(2, 4, 8), 4096, 1000, 3, List.of(32, 4096, 65536, 1 << 20), 3, 256,
            Duration.ofSeconds(30), 4, List.of(8, 64 << 10, 1 << 20, 16 << 20));
    }

    Map<String, Object> asMap() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("incastSenders", incastSenders);
        map.put("incastSize", incastSize);
        map.put("incastProbeSize", Probes.SIZE);
        map.put("incastProbeRatePerSecond", probeRate);
        map.put("allToAllParties", allToAllParties);
        map.put("allToAllSizes", allToAllSizes);
        map.put("peerKillPeers", peerKillPeers);
        map.put("peerKillSize", peerKillSize);
        map.put("peerKillWaitSeconds", peerKillWait.toMillis() / 1000.0);
        map.put("allReduceRanks", allReduceRanks);
        map.put("allReduceSizes", allReduceSizes);
        return map;
    }
}
