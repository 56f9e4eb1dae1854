/**
 * JSON through Jackson, for services that value convenience over nanoseconds: any type Jackson can bind, with no
 * schema to generate. {@link io.rdmareactive.codec.json.JsonCodec} writes through Jackson's generator into a
 * reusable per-thread buffer (never a per-message {@code byte[]}) and copies that once into the claimed range, since
 * the exact length must be known before the claim; it reads straight from the received range.
 *
 * <p>Jackson is an <em>optional</em> dependency of the codecs module: declare {@code jackson-databind} yourself to use
 * this package. Nothing outside this package refers to Jackson, so a service that does not use JSON never loads it.
 */
package io.rdmareactive.codec.json;
