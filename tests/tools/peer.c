/* Test tool plumbing: one ROUTER, one slave (see peer.h). */
#include "tests/tools/peer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "common/timeutil.h"

int peer_send_bytes(struct peer *p, const void *buf, size_t len)
{
	if (zmq_send(p->sock, p->id, p->idlen, ZMQ_SNDMORE) < 0 ||
	    zmq_send(p->sock, buf, len, 0) < 0)
		return -zmq_errno();
	return 0;
}

int peer_send(struct peer *p, const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0)
		return ret;
	ret = peer_send_bytes(p, buf, len);
	free(buf);
	return ret;
}

int peer_recv(struct peer *p, struct proto_msg *m, uint64_t deadline, char *err,
	      size_t errlen)
{
	/* An interval with every histogram full fits (PROTO_MAX_TO_MASTER). */
	static unsigned char buf[1 << 22];

	while (time_mono_ns() < deadline) {
		zmq_pollitem_t it = { p->sock, 0, ZMQ_POLLIN, 0 };
		unsigned char id[256];
		int n, more;
		size_t ml = sizeof(more);

		if (zmq_poll(&it, 1, 200) <= 0)
			continue;
		n = zmq_recv(p->sock, id, sizeof(id), 0);
		if (n < 0)
			continue;
		zmq_getsockopt(p->sock, ZMQ_RCVMORE, &more, &ml);
		if (!more)
			continue;
		p->idlen = (size_t)n < sizeof(p->id) ? (size_t)n :
						       sizeof(p->id);
		memcpy(p->id, id, p->idlen);
		n = zmq_recv(p->sock, buf, sizeof(buf), 0);
		if (n < 0 || (size_t)n > sizeof(buf))
			continue;
		if (proto_decode(buf, (size_t)n, m, err, errlen) < 0)
			return -EBADMSG;
		return 0;
	}
	return -ETIMEDOUT;
}
