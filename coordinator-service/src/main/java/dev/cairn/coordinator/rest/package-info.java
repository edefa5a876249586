/**
 * The coordinator's REST API, in four parts that read as a map: {@link dev.cairn.coordinator.rest.routes} answers
 * each route, {@link dev.cairn.coordinator.rest.access} says who may call it, {@link dev.cairn.coordinator.rest.bodies}
 * reads what a PUT or POST asks for, and {@link dev.cairn.coordinator.rest.sources} is what the answers come from and
 * the requests go to. This package holds what all four share: {@link dev.cairn.coordinator.rest.ApiException}, the
 * error answer.
 *
 * <p>Rule: this package uses none of its subpackages; within the API only routes uses access, bodies and sources;
 * no part of the API uses the HTTP server ({@code http}), the web page, the metrics or main ({@code app}).
 */
package dev.cairn.coordinator.rest;
