/**
 * What the REST API answers from and sends to, behind interfaces: where a job's state lives and its stores
 * ({@link dev.cairn.coordinator.rest.sources.StateSource}, {@link dev.cairn.coordinator.rest.sources.JobLocation}),
 * this instance's health ({@link dev.cairn.coordinator.rest.sources.HealthSource}) and the requests topic
 * ({@link dev.cairn.coordinator.rest.sources.RequestPublisher});
 * {@link dev.cairn.coordinator.rest.sources.StreamsStateSource} answers from a running Kafka Streams. The metrics
 * read the jobs through it too.
 *
 * <p>Rule: the only part of the API that uses the coordinator's Kafka Streams side ({@code streams}); it uses no
 * other part of the API but its error ({@link dev.cairn.coordinator.rest.ApiException}).
 */
package dev.cairn.coordinator.rest.sources;
