/**
 * The route table ({@link dev.cairn.coordinator.rest.routes.Route}) and what answers each route:
 * {@link dev.cairn.coordinator.rest.routes.QueryApi} dispatches and checks access, the GETs are answered from the
 * stores ({@code JobQueries}, {@code JobsOverview}) or by the job's owner
 * ({@link dev.cairn.coordinator.rest.routes.Forwarder}), and {@link dev.cairn.coordinator.rest.routes.JettyApiHandler}
 * serves it all on Jetty.
 *
 * <p>Rule: routes use access, bodies and sources, and nothing uses routes but the HTTP server ({@code http}); the
 * stores are read only through {@link dev.cairn.coordinator.rest.sources.StateSource}, never through {@code streams}.
 */
package dev.cairn.coordinator.rest.routes;
