package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.http.QueryServer;
import dev.cairn.coordinator.http.QueryServerConfig;
import dev.cairn.coordinator.rest.access.TestTokens;
import dev.cairn.coordinator.rest.sources.AlwaysUp;
import dev.cairn.coordinator.streams.CoordinatorDriver;
import dev.cairn.coordinator.testbed.RestClient;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.JobSpec;
import dev.cairn.events.RequestEnvelope;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The REST API of the endpoint tests: a server with the tokens of {@link TestTokens#mutations()} over the stores of a
 * {@link CoordinatorDriver} whose jobs are registered, keeping every request it publishes, in order, instead of
 * sending it: what a request publishes, and that a refused one publishes nothing.
 */
final class PublishingApi implements AutoCloseable {

    private final List<RequestEnvelope> published = new CopyOnWriteArrayList<>();
    private final CoordinatorDriver cairn;
    private final QueryServer server;

    private PublishingApi(Path stateDir, JobSpec... jobs) {
        cairn = CoordinatorDriver.start(stateDir);
        for (JobSpec job : jobs) {
            cairn.register(job);
        }
        server = QueryServer.bind(QueryServerConfig.loopback().withAccess(TestTokens.mutations()));
        server.start(cairn.localSource(), new AlwaysUp(), (jobId, request) -> published.add(request),
                InputLimits.DEFAULTS, UnaryOperator.identity());
    }

    /** Starts a driver with its stores in {@code stateDir}, registers {@code jobs}, and serves the API over it. */
    static PublishingApi start(Path stateDir, JobSpec... jobs) {
        return new PublishingApi(stateDir, jobs);
    }

    CoordinatorDriver cairn() {
        return cairn;
    }

    /** What the API published so far, oldest first. */
    List<RequestEnvelope> published() {
        return published;
    }

    /** A client of the API sending {@code token} ({@code null}: none). */
    RestClient client(String token) {
        return new RestClient(server::uri, token);
    }

    @Override
    public void close() {
        server.close();
        cairn.close();
    }
}
