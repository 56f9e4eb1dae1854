package io.rdmareactive.spi;

import java.util.Objects;

/**
 * How to create a queue pair. Immutable; built with {@link #builder(CompletionQueue, CompletionQueue)}.
 *
 * @param sendQueue       where send work completes
 * @param receiveQueue    where receive work completes
 * @param sendDepth       send requests outstanding at once: a request holds its place until its completion, or that
 *                        of a later request of the same queue pair, has been polled (as on verbs), so with selective
 *                        signalling signal at least one request in every {@code sendDepth}
 * @param receiveDepth    receives posted at once
 * @param maxSendSge      gather entries per send request
 * @param maxReceiveSge   scatter entries per receive
 * @param maxInlineData   bytes of inline data per send
 * @param signalAll       true to complete every send request, false for selective signalling ({@link SendFlags#SIGNALED})
 * @param rnrRetries      how many times a SEND or WRITE_WITH_IMM is retried when the peer has no receive posted
 *                        (0 to 6; 7 means forever, as on verbs)
 * @param prepare         called with the new queue pair before the peer can send to it (before the connect request
 *                        or the accept goes out): where receives that must be there first are posted; null for none
 * @param protectionDomain the domain the queue pair is created in (its work requests reach only that domain's
 *                        regions), or null for the device's own
 */
public record QueuePairOptions(CompletionQueue sendQueue, CompletionQueue receiveQueue, int sendDepth,
                               int receiveDepth, int maxSendSge, int maxReceiveSge, int maxInlineData,
                               boolean signalAll, int rnrRetries,
                               java.util.function.Consumer<QueuePair> prepare, ProtectionDomain protectionDomain) {

    public QueuePairOptions {
        Objects.requireNonNull(sendQueue, "sendQueue");
        Objects.requireNonNull(receiveQueue, "receiveQueue");
        positive("sendDepth", sendDepth);
        positive("receiveDepth", receiveDepth);
        positive("maxSendSge", maxSendSge);
        positive("maxReceiveSge", maxReceiveSge);
        if (maxInlineData < 0) {
            throw new IllegalArgumentException("maxInlineData must not be negative: " + maxInlineData);
        }
        if (rnrRetries < 0 || rnrRetries > 7) {
            throw new IllegalArgumentException("rnrRetries must be 0 to 7 (7 = retry forever): " + rnrRetries);
        }
    }

    private static void positive(final String name, final int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    /** Runs {@link #prepare()} on a queue pair a provider just created, if there is one. */
    public void prepare(final QueuePair queuePair) {
        if (prepare != null) {
            prepare.accept(queuePair);
        }
    }

    /** @return a builder with defaults: depth 256 each way, 4 gather/scatter entries, 64 inline bytes */
    public static Builder builder(final CompletionQueue sendQueue, final CompletionQueue receiveQueue) {
        return new Builder(sendQueue, receiveQueue);
    }

    /** Builds {@link QueuePairOptions}. */
    public static final class Builder {
        private final CompletionQueue sendQueue;
        private final CompletionQueue receiveQueue;
        private int sendDepth = 256;
        private int receiveDepth = 256;
        private int maxSendSge = 4;
        private int maxReceiveSge = 4;
        private int maxInlineData = 64;
        private boolean signalAll = true;
        private int rnrRetries = 0;
        private java.util.function.Consumer<QueuePair> prepare;
        private ProtectionDomain protectionDomain;

        private Builder(final CompletionQueue sendQueue, final CompletionQueue receiveQueue) {
            this.sendQueue = sendQueue;
            this.receiveQueue = receiveQueue;
        }

        public Builder sendDepth(final int sendDepth) {
            this.sendDepth = sendDepth;
            return this;
        }

        public Builder receiveDepth(final int receiveDepth) {
            this.receiveDepth = receiveDepth;
            return this;
        }

        public Builder maxSendSge(final int maxSendSge) {
            this.maxSendSge = maxSendSge;
            return this;
        }

        public Builder maxReceiveSge(final int maxReceiveSge) {
            this.maxReceiveSge = maxReceiveSge;
            return this;
        }

        public Builder maxInlineData(final int maxInlineData) {
            this.maxInlineData = maxInlineData;
            return this;
        }

        public Builder signalAll(final boolean signalAll) {
            this.signalAll = signalAll;
            return this;
        }

        public Builder rnrRetries(final int rnrRetries) {
            this.rnrRetries = rnrRetries;
            return this;
        }

        /** @param prepare called with the new queue pair before the peer can send to it (see the record) */
        public Builder prepare(final java.util.function.Consumer<QueuePair> prepare) {
            this.prepare = prepare;
            return this;
        }

        /** @param domain the domain to create the queue pair in, of the same device; null for the device's own */
        public Builder protectionDomain(final ProtectionDomain domain) {
            this.protectionDomain = domain;
            return this;
        }

        public QueuePairOptions build() {
            return new QueuePairOptions(sendQueue, receiveQueue, sendDepth, receiveDepth, maxSendSge, maxReceiveSge,
                maxInlineData, signalAll, rnrRetries, prepare, protectionDomain);
        }
    }
}
