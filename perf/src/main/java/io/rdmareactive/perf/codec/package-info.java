/**
 * Encode and decode of every built-in codec, one benchmark each, as the protocol uses them: {@code encodedLength}
 * then {@code encode} into an off-heap buffer standing in for a claimed ring range, and {@code decode} from it. Run
 * them with {@code -prof gc}: the byte, primitive, String-ASCII and SBE codecs allocate nothing per operation in
 * steady state, except where the decoded type is itself a new object. The command is in {@code docs/codecs.md}.
 */
package io.rdmareactive.perf.codec;
