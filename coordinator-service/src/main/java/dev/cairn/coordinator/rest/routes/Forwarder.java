package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.coordinator.rest.sources.JobLocation;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Passes a GET on to the instance that owns the job and hands its answer back as it is. The forwarded
 * request carries {@value #FORWARDED_BY}, so that an instance that receives a forwarded request for a job it
 * does not own (the assignment moved meanwhile) answers 503 instead of forwarding again: no loops.
 */
public final class Forwarder {

    /** Set on forwarded requests: the instance that forwarded it. */
    static final String FORWARDED_BY = "X-Cairn-Forwarded-By";
    /** Set on every answer: the instance whose stores answered. */
    static final String SERVED_BY = "X-Cairn-Served-By";
    private static final List<String> PASSED_BACK = List.of("Retry-After", "Allow", "WWW-Authenticate", SERVED_BY);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client;
    private final String scheme;
    private final String self;

    /** Over plain HTTP. @param self this instance's host:port, sent as {@value #FORWARDED_BY} */
    public Forwarder(String self) {
        this.self = self;
        this.scheme = "http";
        this.client = clientBuilder().build();
    }

    /**
     * Over HTTPS.
     *
     * @param self this instance's host:port, sent as {@value #FORWARDED_BY}
     * @param tls trusts the other instances' certificates
     */
    public Forwarder(String self, SSLContext tls) {
        this.self = self;
        this.scheme = "https";
        this.client = clientBuilder().sslContext(tls).build();
    }

    private static HttpClient.Builder clientBuilder() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2));
    }

    /**
     * GETs {@code rawPathAndQuery} from {@code owner}.
     *
     * @param authorizationOrNull the caller's {@code Authorization} header, passed on when reads need a token
     * @throws ApiException 503 when the owner does not answer
     */
    HttpAnswer get(JobLocation.Remote owner, String rawPathAndQuery, String authorizationOrNull) {
        URI uri = URI.create(scheme + "://" + owner.authority() + rawPathAndQuery);
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header(FORWARDED_BY, self)
                .header("Accept", "application/json")
                .GET();
        if (authorizationOrNull != null) {
            builder.header("Authorization", authorizationOrNull);
        }
        HttpRequest request = builder.build();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            Map<String, String> headers = new HashMap<>();
            PASSED_BACK.forEach(name -> response.headers().firstValue(name).ifPresent(v -> headers.put(name, v)));
            return new HttpAnswer(response.statusCode(), response.body(), headers);
        } catch (IOException e) {
            throw ApiException.unavailable("coordinator instance " + owner.authority()
                    + " owns this job but did not answer (" + e + "); it may be restarting");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while asking coordinator instance " + owner.authority());
        }
    }
}
