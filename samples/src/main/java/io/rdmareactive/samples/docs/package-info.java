/**
 * The code the docs show: each class holds the snippets of one topic of README.md or a page of {@code docs/}, marked
 * with {@code // tag::name[]} and {@code // end::name[]} (imports included, so that a block can be pasted), and a
 * page quotes a region after {@code <!-- snippet: path#name -->}. {@code DocSnippetsTest} fails when a page and its
 * source differ, and {@code DocExamplesTest} runs what the snippets start (servers, clients, runtimes) on the
 * shared-memory provider. Like the other samples they use the public API only.
 *
 * <ul>
 *   <li>getting-started.md: {@link io.rdmareactive.samples.docs.UpperCaseEcho},
 *       {@link io.rdmareactive.samples.docs.InteractionModels}, {@link io.rdmareactive.samples.docs.Conveniences},
 *       {@link io.rdmareactive.samples.docs.OwnRuntime};</li>
 *   <li>threading.md: {@link io.rdmareactive.samples.docs.OffTheLoop}, {@link io.rdmareactive.samples.docs.InvokerLoop};</li>
 *   <li>codecs.md: {@link io.rdmareactive.samples.docs.TypedMessages}, {@link io.rdmareactive.samples.docs.OrderCodec}
 *       (with {@link io.rdmareactive.samples.docs.Order} and {@link io.rdmareactive.samples.docs.Fill});</li>
 *   <li>remote-memory.md: {@link io.rdmareactive.samples.docs.RemoteTable};</li>
 *   <li>reliability.md: {@link io.rdmareactive.samples.docs.Reconnecting};</li>
 *   <li>security.md: {@link io.rdmareactive.samples.docs.SharedSecret};</li>
 *   <li>verbs.md: {@link io.rdmareactive.samples.docs.VerbsEcho}.</li>
 * </ul>
 */
package io.rdmareactive.samples.docs;
