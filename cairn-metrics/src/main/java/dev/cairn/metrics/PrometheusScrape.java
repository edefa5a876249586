package dev.cairn.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One answer to {@code GET /metrics}, shared by the coordinator and the sidecar: every metric of a Prometheus
 * registry, in the format the request's {@code Accept} header asks for. OpenMetrics 1.0.0 when it names
 * {@code application/openmetrics-text}, Prometheus' text format 0.0.4 otherwise.
 *
 * @param contentType the media type of the body, to send as {@code Content-Type}
 * @param body the metrics, UTF-8 text
 */
public record PrometheusScrape(String contentType, byte[] body) {

    /** The media type that asks for OpenMetrics. */
    public static final String OPENMETRICS = "application/openmetrics-text";
    /** The content type of an OpenMetrics answer. */
    public static final String OPENMETRICS_1 = OPENMETRICS + "; version=1.0.0; charset=utf-8";
    /** The content type of a Prometheus text-format answer. */
    public static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * Scrapes {@code registry} now.
     *
     * @param registry the metrics
     * @param accept the request's {@code Accept} header; {@code null} when it has none
     * @return the body and its content type
     */
    public static PrometheusScrape of(PrometheusMeterRegistry registry, String accept) {
        String contentType = accept != null && accept.contains(OPENMETRICS) ? OPENMETRICS_1 : TEXT_004;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        try {
            registry.scrape(body, contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PrometheusScrape(contentType, body.toByteArray());
    }
}
