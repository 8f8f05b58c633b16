-- `supabase db reset` seeds nothing beyond what the migrations create: the demo library (images and rows) is made
-- by the local stack's demo seeder (local/seed), which uploads images through Storage before inserting rows.
select 1;
