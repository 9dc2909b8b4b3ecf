"""Django's Redis cache, with one redis-py client per connection pool.

Django 5.2 builds a new ``redis.Redis`` for every cache call, and its constructor fills a
table of about 170 response callbacks: measured at 0.15 ms of a 1.4 ms public cache hit.
A redis-py client holds no state beyond its connection pool and is safe to share between
threads, so each pool gets one client, built on first use.
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _OneClientPerPool(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _OneClientPerPool
