process.env.TZ = 'UTC';
process.env.LC_ALL = 'C';
