package io.rdmareactive.perf.compare;

import io.rdmareactive.RdmaStreamsBusyException;
import io.rdmareactive.StreamHandler;
import io.rdmareactive.codec.Codecs;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The requests of the request-response workloads and the check of every answer: a request is {@code size} bytes of
 * a fixed pattern with its sequence number in the first 8; its answer must be the same bytes. Counts wrong answers,
 * failed calls and refusals; safe to use from several threads (answers arrive on the library's threads).
 */
final class Answers {

    /** The server's side: answers every request with its own bytes (a copy: the request's view ends with it). */
    static final StreamHandler ECHO = (kind, in, out) -> out.send(in.receive(Codecs.BYTE_ARRAY), Codecs.BYTE_ARRAY);

    /** Stands for an empty answer (a handler that answered nothing), which is a wrong one. */
    static final byte[] NONE = new byte[0];

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);

    private final int size;
    private final byte[] template;
    private final LongAdder right = new LongAdder();
    private final LongAdder wrong = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();

    Answers(final int size) {
        if (size < Long.BYTES) {
            throw new IllegalArgumentException("a request carries an 8-byte sequence number: " + size + " bytes");
        }
        this.size = size;
        this.template = new byte[size];
        for (int i = 0; i < size; i++) {
            template[i] = (byte) (i * 31);
        }
    }

    int size() {
        return size;
    }

    /** @return a new request carrying {@code sequence} */
    byte[] request(final long sequence) {
        final byte[] request = template.clone();
        LONG.set(request, 0, sequence);
        return request;
    }

    /** Rewrites {@code request}'s sequence number, for a caller that reuses one array (closed loop). */
    static void renumber(final byte[] request, final long sequence) {
        LONG.set(request, 0, sequence);
    }

    /** @return whether {@code answer} is the request {@code sequence}'s bytes; counts it right or wrong */
    boolean check(final byte[] answer, final long sequence) {
        final boolean ok = answer.length == size && (long) LONG.get(answer, 0) == sequence
            && Arrays.equals(answer, Long.BYTES, size, template, Long.BYTES, size);
        (ok ? right : wrong).increment();
        return ok;
    }

    /** @return whether {@code error} is a refusal (every request stream of the connection busy); counts it */
    boolean refusal(final Throwable error) {
        if (error instanceof RdmaStreamsBusyException) {
            refused.increment();
            return true;
        }
        return false;
    }

    /** Counts a call that ended in {@code error}, and keeps the first such error's description. */
    void failed(final Throwable error) {
        failed.increment();
        firstFailure.compareAndSet(null, String.valueOf(error));
    }

    /** @return the answers checked, right and wrong */
    long checked() {
        return right.sum() + wrong.sum();
    }

    long wrong() {
        return wrong.sum();
    }

    long failed() {
        return failed.sum();
    }

    long refused() {
        return refused.sum();
    }

    String firstFailure() {
        return firstFailure.get();
    }
}
