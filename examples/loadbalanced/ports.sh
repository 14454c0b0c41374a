# Sourced by the scripts of examples/loadbalanced: the addresses that
# nginx.conf and haproxy.cfg name, which the scripts run as they are. The
# balancer listens on 127.0.0.1:8080 and reaches instances s1, s2, s3 on
# 127.0.0.1:8081, 8082, 8083. Stops the script when one is already in use.
lb=8080 p1=8081 p2=8082 p3=8083
for p in "$lb" "$p1" "$p2" "$p3"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    echo "$0: 127.0.0.1:$p is in use, and examples/loadbalanced/nginx.conf and haproxy.cfg listen on 127.0.0.1:8080 and reach their instances on 8081-8083: stop what listens there" >&2
    exit 1
  fi
done
