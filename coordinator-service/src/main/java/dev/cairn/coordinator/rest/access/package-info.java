/**
 * Who may call the REST API: the bearer tokens of the tokens file
 * ({@link dev.cairn.coordinator.rest.access.BearerTokens}), the jobs each covers
 * ({@link dev.cairn.coordinator.rest.access.JobScope}), and the checks of a read, a mutation and a listing
 * ({@link dev.cairn.coordinator.rest.access.AccessPolicy}).
 *
 * <p>Rule: it checks tokens and scopes only; it uses no other part of the API but its error
 * ({@link dev.cairn.coordinator.rest.ApiException}), and no Kafka.
 */
package dev.cairn.coordinator.rest.access;
