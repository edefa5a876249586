/**
 * The request bodies of the REST API, bound strictly by Jackson ({@code BodyReader}) with Flink's field names where
 * Flink has them, and checked by the coordinator's own rules: a job spec
 * ({@link dev.cairn.coordinator.rest.bodies.JobSpecBody}), a trigger
 * ({@link dev.cairn.coordinator.rest.bodies.TriggerBodies}), a restore or a disposal
 * ({@link dev.cairn.coordinator.rest.bodies.RestoreBodies}). A body is answered with every problem at once.
 *
 * <p>Rule: text in, an event out, or a 400 naming each field at fault; it uses no other part of the API but its
 * error ({@link dev.cairn.coordinator.rest.ApiException}), and no Kafka.
 */
package dev.cairn.coordinator.rest.bodies;
