#!/usr/bin/env python3
# Print a TCP port P on ADDR with P+1 free too (a master's ROUTER and PUB),
# for scripts and tests whose daemons must know the port before the master
# starts. Exits 1 when none is found in 100 tries. usage: free-port-pair.py ADDR
import socket
import sys

for _ in range(100):
    a = socket.socket()
    a.bind((sys.argv[1], 0))
    p = a.getsockname()[1]
    b = socket.socket()
    try:
        if p < 65535:
            b.bind((sys.argv[1], p + 1))
            print(p)
            sys.exit(0)
    except OSError:
        pass
    finally:
        a.close()
        b.close()
sys.exit(1)
