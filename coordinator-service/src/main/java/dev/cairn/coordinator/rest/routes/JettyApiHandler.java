package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves {@link QueryApi} on Jetty. The body is read without holding a thread (a client that declares a
 * body and never sends it costs a connection, not a thread, until the connector's idle timeout answers it 408
 * and closes it),
 * up to {@link QueryApi#MAX_BODY_BYTES}: a larger declared or sent body is answered 413. The API's answer
 * is then computed on a thread of the server's pool, because it may block (forwarding, producing).
 */
public final class JettyApiHandler extends Handler.Abstract {

    private final QueryApi api;

    public JettyApiHandler(QueryApi api) {
        this.api = api;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (request.getLength() > QueryApi.MAX_BODY_BYTES) {
            write(response, callback, tooLarge());
            return true;
        }
        Content.Source.asByteArrayAsync(request, QueryApi.MAX_BODY_BYTES + 1).whenComplete((body, failure) ->
                request.getContext().execute(() -> {
                    if (failure != null) {
                        write(response, callback, unreadBody(failure));
                    } else if (body.length > QueryApi.MAX_BODY_BYTES) {
                        write(response, callback, tooLarge());
                    } else {
                        write(response, callback, api.answer(apiRequest(request, body)));
                    }
                }));
        return true;
    }

    /** A body that did not arrive: the client stalled past the idle timeout, or went away. */
    private static HttpAnswer unreadBody(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        int status = cause instanceof TimeoutException ? 408 : 400;
        return HttpAnswer.error(new ApiException(status, "the request body could not be read: " + cause.getMessage()));
    }

    private static HttpAnswer tooLarge() {
        return HttpAnswer.error(ApiException.tooLarge("the body is larger than " + QueryApi.MAX_BODY_BYTES + " bytes"));
    }

    private static ApiRequest apiRequest(Request request, byte[] body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.computeIfAbsent(field.getName(), name -> new ArrayList<>()).add(field.getValue());
        }
        return new ApiRequest(request.getMethod(), request.getHttpURI().getPath(), request.getHttpURI().getQuery(),
                headers, body);
    }

    private static void write(Response response, Callback callback, HttpAnswer answer) {
        response.setStatus(answer.status());
        answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
    }
}
