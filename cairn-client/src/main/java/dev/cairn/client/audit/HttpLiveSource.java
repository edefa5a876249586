package dev.cairn.client.audit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** {@link JournalVerifier.LiveSource} over HTTP: GETs of a coordinator's REST API, with a bearer token when given. */
public final class HttpLiveSource implements JournalVerifier.LiveSource {

    private final HttpClient http;
    private final URI base;
    private final String token;
    private final Duration timeout;

    /**
     * @param base the API's root, e.g. {@code http://coordinator:8081}
     * @param token a bearer token, {@code null} for none
     * @param timeout how long one GET may take
     */
    public HttpLiveSource(URI base, String token, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        String root = base.toString();
        this.base = URI.create(root.endsWith("/") ? root.substring(0, root.length() - 1) : root);
        this.token = token;
        this.timeout = timeout;
    }

    @Override
    public Answer get(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout).GET()
                .header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 401 || response.statusCode() == 403) {
                throw new AuditException("the REST API at " + base + " refused GET " + path + " (HTTP "
                        + response.statusCode()
                        + "): pass a token that may read jobs with --token, --token-file or CAIRN_REST_TOKEN");
            }
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new AuditException("cannot reach the REST API at " + base + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while asking the REST API at " + base, e);
        }
    }
}
